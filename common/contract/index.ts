export * from "./enums";
export * from "./normalized-request";
export * from "./render";
