import { describe, expect, it } from "vitest";
import { bodyDigest, percentEncode, sign, stringToSign } from "@/server/wire/signing";

// Vector A is the upstream's published worked example; vector B is the same request signed with HMAC-SHA256.
const vectorA = {
  path: "/trade/place_order",
  query: { a1: "webull", a2: "123", a3: "xxx", q1: "yyy" },
  headers: {
    "x-app-key": "776da210ab4a452795d74e726ebd74b6",
    "x-timestamp": "2022-01-04T03:55:31Z",
    "x-signature-version": "1.0",
    "x-signature-algorithm": "HMAC-SHA1",
    "x-signature-nonce": "48ef5afed43d4d91ae514aaeafbc29ba",
  },
  host: "api.webull.com",
  body: '{"k1":123,"k2":"this is the api request body","k3":true,"k4":{"foo":[1,2]}}',
  appSecret: "0f50a2e853334a9aae1a783bee120c1f",
};

describe("request signing", () => {
  it("reproduces vector A (HMAC-SHA1, MD5 body) byte for byte", () => {
    expect(bodyDigest("HMAC-SHA1", vectorA.body)).toBe("E296C96787E1A309691CEF3692F5EEDD");
    expect(stringToSign(vectorA)).toBe(
      "/trade/place_order&a1=webull&a2=123&a3=xxx&host=api.webull.com&q1=yyy&x-app-key=776da210ab4a452795d74e726ebd74b6&x-signature-algorithm=HMAC-SHA1&x-signature-nonce=48ef5afed43d4d91ae514aaeafbc29ba&x-signature-version=1.0&x-timestamp=2022-01-04T03:55:31Z&E296C96787E1A309691CEF3692F5EEDD",
    );
    expect(percentEncode(stringToSign(vectorA))).toBe(
      "%2Ftrade%2Fplace_order%26a1%3Dwebull%26a2%3D123%26a3%3Dxxx%26host%3Dapi.webull.com%26q1%3Dyyy%26x-app-key%3D776da210ab4a452795d74e726ebd74b6%26x-signature-algorithm%3DHMAC-SHA1%26x-signature-nonce%3D48ef5afed43d4d91ae514aaeafbc29ba%26x-signature-version%3D1.0%26x-timestamp%3D2022-01-04T03%3A55%3A31Z%26E296C96787E1A309691CEF3692F5EEDD",
    );
    expect(sign(vectorA)).toBe("kvlS6opdZDhEBo5jq40nHYXaLvM=");
  });

  it("reproduces vector B (HMAC-SHA256, SHA-256 body)", () => {
    const b = { ...vectorA, headers: { ...vectorA.headers, "x-signature-algorithm": "HMAC-SHA256" } };
    expect(bodyDigest("HMAC-SHA256", b.body)).toBe("08B9F294222127D6BA471D2A53634393B4FB8E8F038B09183AF6B2164F610C08");
    expect(sign(b)).toBe("WmKFpDtQMSUhCYjmgA66EX5dQo+pS4qOwu3Kl0tb6KU=");
  });

  it("hashes an empty object body and omits the digest without a body", () => {
    expect(bodyDigest("HMAC-SHA1", "{}")).toBe("99914B932BD37A50B983C5E7C90AE93B");
    const { body: _body, ...noBody } = vectorA;
    expect(stringToSign(noBody).endsWith("x-timestamp=2022-01-04T03:55:31Z")).toBe(true);
  });

  it("encodes per RFC 3986: space as %20, reserved characters escaped", () => {
    expect(percentEncode("a b/c:d&e=f~g*h")).toBe("a%20b%2Fc%3Ad%26e%3Df~g%2Ah");
  });
});
