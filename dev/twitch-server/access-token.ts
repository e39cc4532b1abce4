import { createHmac, timingSafeEqual } from "node:crypto";

/** Signs playback tokens like Twitch (HMAC-SHA1 hex over the token's JSON text), so usher can check them. */
export class TokenSigner {
  constructor(private readonly secret: string) {}

  issue(vodId: string, access: { forbidden: boolean; restrictedBitrates: string[] }): { value: string; signature: string } {
    const nowS = Math.floor(Date.now() / 1000);
    const value = JSON.stringify({
      authorization: { forbidden: access.forbidden, reason: access.forbidden ? "vod_forbidden" : "" },
      chansub: { restricted_bitrates: access.restrictedBitrates, view_until: 1924905600 },
      device_id: null,
      expires: nowS + 20 * 3600,
      https_required: false,
      privileged: false,
      user_id: null,
      version: 2,
      vod_id: Number(vodId),
    });
    return { value, signature: this.sign(value) };
  }

  sign(value: string): string {
    return createHmac("sha1", this.secret).update(value).digest("hex");
  }

  /** The token's claims when signature, VOD id and expiry check out; null otherwise. */
  verify(vodId: string, value: string, signature: string): { vod_id: number; expires: number } | null {
    const expected = Buffer.from(this.sign(value));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    try {
      const claims = JSON.parse(value) as { vod_id?: unknown; expires?: unknown };
      if (String(claims.vod_id) !== vodId) return null;
      if (typeof claims.expires !== "number" || claims.expires * 1000 < Date.now()) return null;
      return { vod_id: claims.vod_id as number, expires: claims.expires };
    } catch {
      return null;
    }
  }
}
