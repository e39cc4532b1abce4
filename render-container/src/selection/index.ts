export { selectMoments, type SelectMomentsInput } from "./select-moments";
export { pickShorts, type PickShortsOptions } from "./pick-shorts";
export { refineBoundaries, momentWindow, eventExtent, setupStart, clampWindow, snapWindow, BOUNDARY_RULES } from "./boundaries";
export { computeSecondScores, combineScores, CORROBORATION_PENALTY, audienceScore, streamerScore, audioHypeScore, SCORE_RAMPS } from "./second-scores";
export { refineMoments, type RefineLimits } from "./refine-moments";
export { bucketPeaks, candidatePeaks, type BucketPeak } from "./buckets";
export { momentSimilarity, isNearDuplicate, timeSimilarity, signalSimilarity, overlapSeconds } from "./similarity";
export { describeMoment } from "./moment-signals";
export type { Moment, HighlightDurationParams, SecondScores } from "./types";
