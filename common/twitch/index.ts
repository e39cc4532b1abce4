export * from "./errors";
export * from "./gql";
export * from "./vod-url";
export * from "./metadata";
export * from "./playback-token";
export * from "./m3u8";
export * from "./usher";
export * from "./probe";
