import { Hono } from "hono";
import { methodNotAllowed } from "hono/method-not-allowed";
import type { AppEnv } from "./hono-env";
import { onError, onMethodNotAllowed, onNotFound } from "./middleware/errors";
import { requestId } from "./middleware/request-id";
import { adminRoutes } from "./routes/admin";
import { docsRoutes } from "./routes/docs";
import { jobsRoutes } from "./routes/jobs";
import { pricingRoutes } from "./routes/pricing";
import { videosRoutes } from "./routes/videos";

export const app = new Hono<AppEnv>();

app.use(requestId);
app.use(methodNotAllowed({ app, onMethodNotAllowed }));

app.route("/jobs", jobsRoutes);
app.route("/videos", videosRoutes);
app.route("/pricing", pricingRoutes);
app.route("/admin", adminRoutes);
app.route("/", docsRoutes);
// Renderer callbacks, uploads, file links and download-all are mounted here by their own modules.

app.notFound(onNotFound);
app.onError(onError);
