//! Namespaces of elements and attributes, as the HTML parser assigns them.
//!
//! The parser creates elements in three namespaces only (HTML, SVG,
//! MathML) and gives attributes one of three namespaces besides none (the
//! foreign attributes `xlink:*`, `xml:*`, `xmlns`/`xmlns:xlink`), so both
//! are small enums rather than URL strings; [`Namespace::url`] and
//! [`AttrNamespace::url`] give the URLs.

use std::fmt;

/// The namespace of an element.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Namespace {
    /// `http://www.w3.org/1999/xhtml`
    #[default]
    Html,
    /// `http://www.w3.org/2000/svg`
    Svg,
    /// `http://www.w3.org/1998/Math/MathML`
    MathMl,
}

impl Namespace {
    /// The namespace URL.
    pub fn url(self) -> &'static str {
        match self {
            Namespace::Html => "http://www.w3.org/1999/xhtml",
            Namespace::Svg => "http://www.w3.org/2000/svg",
            Namespace::MathMl => "http://www.w3.org/1998/Math/MathML",
        }
    }

    /// The html5lib test format's designator: `""`, `"svg "` or `"math "`.
    pub fn designator(self) -> &'static str {
        match self {
            Namespace::Html => "",
            Namespace::Svg => "svg ",
            Namespace::MathMl => "math ",
        }
    }
}

impl fmt::Display for Namespace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.url())
    }
}

/// The namespace of an attribute.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum AttrNamespace {
    /// No namespace (every attribute of an HTML element, most others).
    #[default]
    None,
    /// `http://www.w3.org/1999/xlink` (prefix `xlink`).
    XLink,
    /// `http://www.w3.org/XML/1998/namespace` (prefix `xml`).
    Xml,
    /// `http://www.w3.org/2000/xmlns/` (`xmlns` and `xmlns:xlink`).
    Xmlns,
}

impl AttrNamespace {
    /// The namespace URL, or `None` for no namespace.
    pub fn url(self) -> Option<&'static str> {
        match self {
            AttrNamespace::None => None,
            AttrNamespace::XLink => Some("http://www.w3.org/1999/xlink"),
            AttrNamespace::Xml => Some("http://www.w3.org/XML/1998/namespace"),
            AttrNamespace::Xmlns => Some("http://www.w3.org/2000/xmlns/"),
        }
    }

    /// The prefix a serializer writes before the local name (`xlink`,
    /// `xml`, `xmlns`), or `None`.
    pub fn prefix(self) -> Option<&'static str> {
        match self {
            AttrNamespace::None => None,
            AttrNamespace::XLink => Some("xlink"),
            AttrNamespace::Xml => Some("xml"),
            AttrNamespace::Xmlns => Some("xmlns"),
        }
    }
}
