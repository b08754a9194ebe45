"use client";

// Same view as the root error page, but inside the desk shell so the navigation stays.
export { default } from "@/app/error";
