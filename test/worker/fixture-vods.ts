/** Served by the local Twitch server of the worker tests (twitch-fixtures.node.ts). */
export const FIXTURE_VODS = {
  /** 2 h public archive. */
  public: "1001",
  deleted: "1002",
  live: "1003",
  private: "1004",
  subscriberOnly: "1005",
  /** 30 h: longer than the 24 h maximum. */
  tooLong: "1006",
  /** 10 min public archive, for manual highlights near the end. */
  short: "1007",
  /** 1 h public archive: the VOD of minimalJob, whose vod_length_hours 1 matches its real length. */
  hour: "1008",
  /** 4 h public archive with the id of the OpenAPI document's example bodies (worker/src/openapi/examples.ts). */
  docsExample: "2345678901",
  /** 1 h public archive whose title and names hold a direction override, zero-width and control characters. */
  invisibleText: "1009",
  /** No folder at all: Twitch answers as for a deleted VOD. */
  missing: "1999",
} as const;
