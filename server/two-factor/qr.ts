import "server-only";
import QRCode from "qrcode";

/** The QR code of an otpauth:// URI as an SVG data URL, made on the server: the secret goes to no other service. */
export async function qrDataUrl(text: string): Promise<string> {
  const svg = await QRCode.toString(text, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
}
