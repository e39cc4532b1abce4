import { Hono } from "hono";
import { methodNotAllowed } from "hono/method-not-allowed";
import type { AppEnv } from "./hono-env";
import { onError, onMethodNotAllowed, onNotFound } from "./middleware/errors";
import { requestId } from "./middleware/request-id";
import { adminRoutes } from "./routes/admin";
import { docsRoutes } from "./routes/docs";
import { downloadRoutes } from "./routes/downloads";
import { filesRoutes } from "./routes/files";
import { internalAiRoutes } from "./routes/internal-ai";
import { internalArtifactRoutes } from "./routes/internal-artifacts";
import { internalStorageRoutes } from "./routes/internal-storage";
import { taskEventRoutes } from "./routes/task-events";
import { jobsRoutes } from "./routes/jobs";
import { pricingRoutes } from "./routes/pricing";
import { videosRoutes } from "./routes/videos";
import { webhookRoutes } from "./routes/webhooks";

export const app = new Hono<AppEnv>();

app.use(requestId);
app.use(methodNotAllowed({ app, onMethodNotAllowed }));

app.route("/jobs", jobsRoutes);
app.route("/videos", videosRoutes);
app.route("/pricing", pricingRoutes);
app.route("/admin", adminRoutes);
app.route("/", docsRoutes);
app.route("/jobs", downloadRoutes);
app.route("/jobs", webhookRoutes);
app.route("/files", filesRoutes);
// Renderer callbacks and uploads (per-job renderer token, not an API key).
app.route("/internal", taskEventRoutes);
app.route("/internal", internalArtifactRoutes);
app.route("/internal", internalStorageRoutes);
app.route("/internal", internalAiRoutes);

app.notFound(onNotFound);
app.onError(onError);
