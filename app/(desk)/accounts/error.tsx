"use client";

// Inside the desk shell, so the navigation stays when an accounts page fails as a whole.
export { default } from "@/app/error";
