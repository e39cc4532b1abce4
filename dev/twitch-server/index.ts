export * from "./server";
export * from "./vod-folder";
export { CHAT_PERSISTED_QUERY_HASH } from "./gql-handler";
