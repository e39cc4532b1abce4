export * from "./enums";
export * from "./normalized-request";
export * from "./render";
export * from "./languages";
export * from "./job-request";
export * from "./api";
export * from "./results";
export * from "./webhooks";
