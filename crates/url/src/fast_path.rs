//! Fast paths (placeholder while the general parser is brought up).
use crate::percent_encoding::QueryEncoder;
use crate::url::Url;

pub(crate) fn try_parse(
    _input: &str,
    _base: Option<&Url>,
    _encoder: Option<&dyn QueryEncoder>,
) -> Option<Url> {
    None
}
