import { methodNotAllowed } from "hono/method-not-allowed";
import { cacheHeaders } from "./middleware/cache-headers";
import { onError, onMethodNotAllowed, onNotFound } from "./middleware/errors";
import { requestId } from "./middleware/request-id";
import { ApiRouter } from "./openapi/api-router";
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

/**
 * The public API: every route is declared once (routes/*.routes.ts) and mounted here; the OpenAPI document lists
 * them in this order from the app's registry.
 */
export const app = new ApiRouter();

app.use(requestId);
app.use(cacheHeaders);
app.use(methodNotAllowed({ app, onMethodNotAllowed }));

app.route("/jobs", jobsRoutes);
app.route("/jobs", downloadRoutes);
app.route("/files", filesRoutes);
app.route("/jobs", webhookRoutes);
app.route("/videos", videosRoutes);
app.route("/pricing", pricingRoutes);
app.route("/admin", adminRoutes);
app.route("/", docsRoutes(() => app.openAPIRegistry.definitions));
// Renderer callbacks and uploads (each task attempt's renderer token, not an API key): plain Hono routers, so they stay out
// of the public document.
app.route("/internal", taskEventRoutes);
app.route("/internal", internalArtifactRoutes);
app.route("/internal", internalStorageRoutes);
app.route("/internal", internalAiRoutes);

app.notFound(onNotFound);
app.onError(onError);
