import { z } from "zod";

/**
 * Messages for people, wherever a schema gives none of its own: zod's defaults ("Too big: expected string to have
 * <=120 characters") speak of types. Imported for its effect by the form kit and the action wrapper, so every form
 * and every action shows these; a schema's own message still wins.
 */
export function humanMessage(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case "too_big": {
      const max = Number(issue.maximum);
      if (issue.origin === "string") return `Use at most ${max} characters`;
      if (issue.origin === "array" || issue.origin === "set") return `Choose at most ${max}`;
      return `Enter at most ${max}`;
    }
    case "too_small": {
      const min = Number(issue.minimum);
      if (issue.origin === "string") return min <= 1 ? "Enter a value" : `Use at least ${min} characters`;
      if (issue.origin === "array" || issue.origin === "set") return min <= 1 ? "Choose at least one" : `Choose at least ${min}`;
      return `Enter at least ${min}`;
    }
    case "invalid_type":
      return issue.input === undefined || issue.input === null || issue.input === "" ? "Enter a value" : "Enter a valid value";
    case "invalid_format":
      return issue.format === "email" ? "Enter a valid email address" : "Enter a valid value";
    case "invalid_value":
      return "Choose one of the options";
    default:
      return "Enter a valid value";
  }
}

z.config({ customError: humanMessage });
