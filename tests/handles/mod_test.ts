import assert from "node:assert/strict";
import * as tern from "../../mod.ts";

Deno.test("mod.ts exports the public API and nothing from the internals", () => {
  assert.deepEqual(
    Object.keys(tern).sort(),
    [
      "AmbiguousNameError",
      "verifyLock",
      "readLock",
      "makeBibliography",
      "joinCitations",
      "Provenance",
      "LockError",
      "DataChangedError",
      "Bibliography",
      "AuthError",
      "BadRequestError",
      "CITATION_STYLES",
      "CITATION_STYLE_LIST",
      "CacheMissError",
      "Citation",
      "ContentError",
      "CorruptCopyError",
      "Dataset",
      "DatasetMetadata",
      "File",
      "FileChangedError",
      "Folder",
      "Handle",
      "IntegrityError",
      "JUPYTER_DISPLAY",
      "ListingChangedError",
      "LocalFileError",
      "Listing",
      "NetworkError",
      "NotFoundError",
      "OtherStoreError",
      "ParseError",
      "PermissionError",
      "ProgressChannel",
      "ProtocolError",
      "RequestTooLargeError",
      "ResponseTooLargeError",
      "SUPPORTED_FORMATS",
      "TABLE_FORMAT_ENTRIES",
      "ServerError",
      "SignInRequiredError",
      "Store",
      "TernError",
      "TlsError",
      "UnsupportedFormatError",
      "VERSION",
      "arkUrl",
      "connect",
      "doiUrl",
      "escapeHtml",
      "isAbortError",
      "loadPlot",
      "manifestFormatOf",
      "normalizeArk",
      "normalizeDoi",
      "normalizeMetadata",
      "normalizeOrcid",
      "parseName",
      "setFrameView",
      "view",
      "writeManifest",
    ].sort(),
  );
  for (const error of [tern.ContentError, tern.ListingChangedError, tern.NotFoundError]) {
    assert.ok(new error("x") instanceof tern.TernError);
  }
  assert.ok(new tern.SignInRequiredError("x") instanceof tern.AuthError);
  assert.equal(typeof tern.VERSION, "string");
  assert.ok(
    tern.connect({ url: "http://127.0.0.1:9/terrain", anonymous: true }) instanceof tern.Store,
  );
});
