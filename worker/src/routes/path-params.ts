import { z } from "zod";

/** Path parameters of the routes, each with the description the document shows. */
export const JobIdParam = z.object({ id: z.string().meta({ description: "Job id (`job_` + 26-character ULID)." }) });
