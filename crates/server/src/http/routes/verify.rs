//! `GET /v1/verify/{fingerprint}` (§4.2, DESIGN "Verify"): exact match → verified text and
//! source, and the label version it comes from (current, superseded or withdrawn); a near miss
//! → not verified, with the Hamming distance; else `detail: Not Found`.

use axum::extract::{FromRequestParts, State};
use axum::http::request::Parts;
use axum::response::Response;
use percent_encoding::percent_decode_str;
use serde::Serialize;

use super::wire::{blocking, json_response, sized_json_bytes, Envelope, LabelSegment, Source};
use crate::http::access::{Access, VerifyAccess};
use crate::http::{ApiError, AppState};
use drugcite_core::domain::{Fingerprint, InvalidInput};
use drugcite_core::label::Drug;
use drugcite_engine::verify::Verification;
use drugcite_store::{StoredSegment, VersionStatus};

#[derive(Serialize, utoipa::ToSchema)]
pub struct VerifyFound {
    verified: bool,
    text: Option<String>,
    fingerprint: String,
    drug: Option<Drug>,
    section: Option<String>,
    source: Option<Source>,
    /// Why verification failed (gives the Hamming distance); null when verified.
    message: Option<String>,
    /// The label version the text comes from (the newest holding it) and where it stands;
    /// null when not verified. Additive to the spec.
    label: Option<LabelVersion>,
}

/// The label version a verified segment comes from.
#[derive(Serialize, utoipa::ToSchema)]
pub struct LabelVersion {
    set_id: String,
    /// The SPL document id of the version.
    label_id: String,
    version: String,
    effective_time: String,
    /// `current`: the text is in the label's current version; `superseded`: a newer version
    /// no longer has it (the text is exactly what this version said); `withdrawn`: the label
    /// is no longer published.
    status: VersionStatus,
    /// The label's newest version (this one unless superseded).
    current_version: String,
    current_effective_time: String,
}

impl From<&StoredSegment> for LabelVersion {
    fn from(segment: &StoredSegment) -> Self {
        let (label, standing) = (&segment.label, &segment.standing);
        Self {
            set_id: label.set_id.clone(),
            label_id: label.label_id.clone(),
            version: label.version.clone(),
            effective_time: label.effective_time.clone(),
            status: standing.status,
            current_version: standing.newest.version.clone(),
            current_effective_time: standing.newest.effective_time.clone(),
        }
    }
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct VerifyNotFound {
    /// `Not Found`
    detail: &'static str,
}

/// Told apart by the presence of `detail` (§2.6).
#[derive(Serialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum VerifyData {
    Found(Box<VerifyFound>),
    NotFound(VerifyNotFound),
}

/// The path's fingerprint (its last segment, percent-decoded), parsed; anything else is a
/// 400. Read from the path itself, not axum's `Path`, so that `dispatch` can call the handler
/// without axum's routing.
pub struct FingerprintParam(Fingerprint);

impl<S: Send + Sync> FromRequestParts<S> for FingerprintParam {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        let last = last_segment(parts.uri.path());
        if !last.contains('%') {
            return Ok(Self(Fingerprint::parse(last)?));
        }
        let decoded = percent_decode_str(last)
            .decode_utf8()
            .map_err(|_| InvalidInput::FingerprintAlphabet)?;
        Ok(Self(Fingerprint::parse(&decoded)?))
    }
}

/// The path's last segment; a fingerprint's 128 characters are looked at first, without
/// searching the path for its last `/`.
fn last_segment(path: &str) -> &str {
    let plain = path.len().checked_sub(Fingerprint::LEN + 1);
    match plain.and_then(|slash| path.as_bytes().get(slash)) {
        Some(b'/') => &path[path.len() - Fingerprint::LEN..],
        _ => path.rsplit('/').next().unwrap_or_default(),
    }
}

#[utoipa::path(get, path = "/v1/verify/{fingerprint}", tag = "verify",
    params(("fingerprint" = String, Path, description = "128 characters, 0/1 only", min_length = 128, max_length = 128, pattern = "^[01]{128}$")),
    security((), ("api_key" = [])),
    responses(
        (status = 200, description = "Verified, not verified (with distance), or `{detail: Not Found}`", body = Envelope<VerifyData>),
        (status = 400, description = "Malformed fingerprint", body = crate::http::ErrorEnvelope),
        (status = 401, description = "A key was sent and is invalid or revoked", body = crate::http::ErrorEnvelope),
        (status = 403, description = "The key sent lacks scope `verify`", body = crate::http::ErrorEnvelope),
        (status = 429, description = "Rate limit exceeded; see Retry-After", body = crate::http::ErrorEnvelope),
        (status = 500, description = "Server error", body = crate::http::ErrorEnvelope),
    ))]
pub async fn verify(
    _access: Access<VerifyAccess>,
    State(state): State<AppState>,
    FingerprintParam(fingerprint): FingerprintParam,
) -> Result<Response, ApiError> {
    let epoch = state.engine.verifier.epoch();
    if let Some(body) = state.verified_bodies.get(epoch, fingerprint) {
        return Ok(json_response(body));
    }
    let verification = match state.engine.verifier.cached(fingerprint) {
        Some(segment) => Verification::Verified(segment),
        None => {
            let engine = state.engine.clone();
            blocking(move || engine.verifier.verify(fingerprint)).await?
        }
    };
    let verified = matches!(verification, Verification::Verified(_));
    let data = answer(fingerprint, verification);
    let text = match &data {
        VerifyData::Found(found) => found.text.as_ref().map_or(0, String::len),
        VerifyData::NotFound(_) => 0,
    };
    let body = sized_json_bytes(&Envelope::ok(data), text + BODY_BESIDE_TEXT)?;
    if verified {
        state.verified_bodies.keep(epoch, fingerprint, body.clone());
    }
    Ok(json_response(body))
}

fn answer(fingerprint: Fingerprint, verification: Verification) -> VerifyData {
    match verification {
        Verification::Verified(segment) => {
            let view = LabelSegment::from(segment.as_ref());
            VerifyData::Found(Box::new(VerifyFound {
                verified: true,
                text: Some(view.text),
                fingerprint: view.fingerprint,
                drug: Some(view.drug),
                section: Some(view.section),
                source: Some(view.source),
                message: None,
                label: Some(LabelVersion::from(segment.as_ref())),
            }))
        }
        Verification::Mismatch { distance } => VerifyData::Found(Box::new(VerifyFound {
            verified: false,
            text: None,
            fingerprint: fingerprint.to_string(),
            drug: None,
            section: None,
            source: None,
            label: None,
            message: Some(format!(
                "no exact match: the nearest indexed fingerprint differs in {distance} of 128 bits (Hamming distance {distance})"
            )),
        })),
        Verification::NotFound => VerifyData::NotFound(VerifyNotFound { detail: "Not Found" }),
    }
}

/// Room for everything of a verify answer but the text (the drug's names and NDCs, the
/// label version, the URL): a typical answer then needs no second buffer.
const BODY_BESIDE_TEXT: usize = 1024;

#[cfg(test)]
mod tests {
    use super::last_segment;

    #[test]
    fn the_last_segment_is_found_with_and_without_a_fingerprint_length() {
        let bits = "01".repeat(64);
        assert_eq!(last_segment(&format!("/v1/verify/{bits}")), bits);
        assert_eq!(last_segment(&format!("/{bits}")), bits);
        assert_eq!(last_segment("/v1/verify/0101"), "0101");
        let longer = format!("{bits}0");
        assert_eq!(last_segment(&format!("/v1/verify/{longer}")), longer);
        assert_eq!(
            last_segment(&format!("/v1/verify/%30{bits}")),
            format!("%30{bits}")
        );
        assert_eq!(last_segment(""), "");
    }
}
