//! The rules for parsing tokens in foreign content (§13.2.6.5), and the
//! adjustments of SVG and MathML names: SVG's camel-case tag and attribute
//! names, MathML's `definitionURL`, and the namespaced foreign attributes
//! (`xlink:href`, `xml:lang`, `xmlns:xlink`, …).

use super::insert::find_nul;
use super::{Flow, Tok, TreeBuilder, TreeErrorKind, TreeSink, is_space};
use crate::names::LocalName as L;
use crate::namespace::{AttrNamespace, Namespace};
use crate::token::{Name, TokenText};

/// SVG element names with upper-case letters, as the DOM has them.
const SVG_TAG_NAMES: &[&str] = &[
    "altGlyph",
    "altGlyphDef",
    "altGlyphItem",
    "animateColor",
    "animateMotion",
    "animateTransform",
    "clipPath",
    "feBlend",
    "feColorMatrix",
    "feComponentTransfer",
    "feComposite",
    "feConvolveMatrix",
    "feDiffuseLighting",
    "feDisplacementMap",
    "feDistantLight",
    "feDropShadow",
    "feFlood",
    "feFuncA",
    "feFuncB",
    "feFuncG",
    "feFuncR",
    "feGaussianBlur",
    "feImage",
    "feMerge",
    "feMergeNode",
    "feMorphology",
    "feOffset",
    "fePointLight",
    "feSpecularLighting",
    "feSpotLight",
    "feTile",
    "feTurbulence",
    "foreignObject",
    "glyphRef",
    "linearGradient",
    "radialGradient",
    "textPath",
];

/// SVG attribute names with upper-case letters.
const SVG_ATTRIBUTE_NAMES: &[&str] = &[
    "attributeName",
    "attributeType",
    "baseFrequency",
    "baseProfile",
    "calcMode",
    "clipPathUnits",
    "diffuseConstant",
    "edgeMode",
    "filterUnits",
    "glyphRef",
    "gradientTransform",
    "gradientUnits",
    "kernelMatrix",
    "kernelUnitLength",
    "keyPoints",
    "keySplines",
    "keyTimes",
    "lengthAdjust",
    "limitingConeAngle",
    "markerHeight",
    "markerUnits",
    "markerWidth",
    "maskContentUnits",
    "maskUnits",
    "numOctaves",
    "pathLength",
    "patternContentUnits",
    "patternTransform",
    "patternUnits",
    "pointsAtX",
    "pointsAtY",
    "pointsAtZ",
    "preserveAlpha",
    "preserveAspectRatio",
    "primitiveUnits",
    "refX",
    "refY",
    "repeatCount",
    "repeatDur",
    "requiredExtensions",
    "requiredFeatures",
    "specularConstant",
    "specularExponent",
    "spreadMethod",
    "startOffset",
    "stdDeviation",
    "stitchTiles",
    "surfaceScale",
    "systemLanguage",
    "tableValues",
    "targetX",
    "targetY",
    "textLength",
    "viewBox",
    "viewTarget",
    "xChannelSelector",
    "yChannelSelector",
    "zoomAndPan",
];

/// The camel-case form of a lower-case name, if `table` has one.
fn camel_case<'t>(table: &[&'static str], name: Name<'t>) -> Name<'t> {
    let s = name.as_str();
    if !s.bytes().any(|b| b.is_ascii_lowercase()) {
        return name;
    }
    table
        .iter()
        .find(|camel| camel.eq_ignore_ascii_case(s))
        .map_or(name, |camel| Name::Other(camel))
}

/// *Adjust SVG tag names*.
pub(crate) fn adjust_svg_tag_name(name: Name<'_>) -> Name<'_> {
    camel_case(SVG_TAG_NAMES, name)
}

/// *Adjust SVG attributes*.
pub(crate) fn adjust_svg_attribute(name: Name<'_>) -> Name<'_> {
    camel_case(SVG_ATTRIBUTE_NAMES, name)
}

/// *Adjust MathML attributes*.
pub(crate) fn adjust_mathml_attribute(name: Name<'_>) -> Name<'_> {
    if name == L::Definitionurl {
        Name::Other("definitionURL")
    } else {
        name
    }
}

/// *Adjust foreign attributes*: the namespace and local name of a
/// namespaced attribute, or `None` for the others.
pub(crate) fn adjust_foreign_attribute(name: Name<'_>) -> Option<(AttrNamespace, Name<'static>)> {
    let s = name.as_str();
    let (ns, local) = match s.split_once(':') {
        Some((
            "xlink",
            local @ ("actuate" | "arcrole" | "href" | "role" | "show" | "title" | "type"),
        )) => (AttrNamespace::XLink, local),
        Some(("xml", local @ ("lang" | "space"))) => (AttrNamespace::Xml, local),
        Some(("xmlns", "xlink")) => (AttrNamespace::Xmlns, "xlink"),
        None if s == "xmlns" => (AttrNamespace::Xmlns, "xmlns"),
        _ => return None,
    };
    let local = match crate::names::LocalName::from_lowercase(local.as_bytes()) {
        Some(n) => Name::Known(n),
        None => Name::Other(match local {
            "actuate" => "actuate",
            "arcrole" => "arcrole",
            "role" => "role",
            "show" => "show",
            "type" => "type",
            "lang" => "lang",
            "space" => "space",
            "xlink" => "xlink",
            "href" => "href",
            "title" => "title",
            _ => "xmlns",
        }),
    };
    Some((ns, local))
}

/// Start tags that leave foreign content (the list the tokenizer's
/// simulator uses too), and `font` with `color`, `face` or `size`.
fn breaks_out(tag: &super::TagTok<'_>) -> bool {
    if tag.is(L::Font) {
        return tag
            .attrs
            .src
            .attrs
            .select(|n| matches!(n, L::Color | L::Face | L::Size).then_some(()))
            .next()
            .is_some();
    }
    crate::simulator::is_breakout(tag.local())
}

impl<S: TreeSink> TreeBuilder<S> {
    /// The rules for parsing tokens in foreign content.
    pub(crate) fn in_foreign_content<'t>(&mut self, token: Tok<'t>) -> Flow<'t> {
        match token {
            Tok::Text(t) => {
                let s = t.as_str();
                if find_nul(s).is_some() {
                    self.error(TreeErrorKind::UnexpectedNull);
                    let replaced = s.replace('\0', "\u{fffd}");
                    self.insert_text(TokenText::Scratch(&replaced));
                } else {
                    self.insert_text(t);
                }
                if self.state.frameset_ok && s.bytes().any(|b| !is_space(b) && b != 0) {
                    self.state.frameset_ok = false;
                }
                Flow::Done
            }
            Tok::Comment(c) => {
                self.insert_comment(c);
                Flow::Done
            }
            Tok::Doctype(_) => {
                self.error(TreeErrorKind::UnexpectedDoctype);
                Flow::Done
            }
            Tok::Start(tag) if breaks_out(&tag) => self.break_out(token),
            Tok::End(tag) if matches!(tag.local(), Some(L::Br | L::P)) => self.break_out(token),
            Tok::Start(tag) => {
                let ns = self
                    .adjusted_current_node()
                    .map_or(Namespace::Html, |node| node.ns);
                self.insert_element(&tag, ns);
                if tag.self_closing {
                    self.pop();
                }
                Flow::Done
            }
            Tok::End(tag) => {
                if tag.is(L::Script)
                    && self.current().is_some_and(|o| {
                        o.info.ns == Namespace::Svg && o.info.key.local() == Some(L::Script)
                    })
                {
                    self.pop();
                    return Flow::Done;
                }
                self.foreign_end_tag(token, tag.name)
            }
            Tok::Eof => Flow::Done,
        }
    }

    fn break_out<'t>(&mut self, token: Tok<'t>) -> Flow<'t> {
        self.error(TreeErrorKind::UnexpectedStartTag);
        while let Some(current) = self.current() {
            let info = current.info;
            if info.ns == Namespace::Html
                || info.is_mathml_text_integration_point()
                || info.html_integration_point
            {
                break;
            }
            self.pop();
        }
        // Reprocess by the current insertion mode's rules (not the
        // dispatcher: in the fragment case the adjusted current node may
        // still be foreign).
        let mode = self.state.mode;
        self.step(mode, token)
    }

    /// Foreign content, "any other end tag". The standard's walk down from
    /// the current node stops at the first entry with the tag's name (the
    /// current node, or a foreign element below it) or at the first HTML
    /// element below the current node, whichever is higher.
    fn foreign_end_tag<'t>(&mut self, token: Tok<'t>, name: Name<'_>) -> Flow<'t> {
        let key = self
            .existing_key(name)
            .filter(|&key| self.state.open.count_of(key) > 0);
        let top = self.state.open.len() - 1;
        if key != Some(self.state.open[top].info.key) {
            self.error(TreeErrorKind::UnexpectedEndTag);
        }
        if top == 0 {
            return Flow::Done;
        }
        let open = &self.state.open;
        let matched = key.and_then(|key| open.top_foreign_key(key));
        let html = open.html_below_top();
        match matched {
            Some(i) if html.is_none_or(|h| i > h) => {
                self.state.open.truncate(i);
                Flow::Done
            }
            _ if html.is_some() => {
                let mode = self.state.mode;
                self.step(mode, token)
            }
            _ => Flow::Done,
        }
    }
}
