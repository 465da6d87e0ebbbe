//! The words sites label their non-article parts with: the heading of a
//! related-articles block ("Related articles", "Mehr zum Thema", "Lire
//! aussi"…) and the lead of a see-also line ("Read more: …", "Lesen Sie
//! auch: …"). Ours, in the languages of the evaluation set and the largest
//! web languages; matched on the text's start, white space collapsed and
//! case folded (Unicode lower case).

/// Headings that open a block of links to other articles: the heading and
/// what follows it in its parent are left out.
const RELATED_HEADINGS: &[&str] = &[
    // English
    "related",
    "related articles",
    "related posts",
    "related stories",
    "related content",
    "related news",
    "related reading",
    "read more",
    "read next",
    "more from",
    "more stories",
    "more on this",
    "more like this",
    "you may also like",
    "you might also like",
    "you may be interested in",
    "recommended",
    "recommended for you",
    "see also",
    "also read",
    "popular posts",
    "most read",
    "trending",
    "latest news",
    "latest posts",
    "recent posts",
    "further reading",
    "leave a reply",
    "leave a comment",
    "comments",
    "share this",
    "share this article",
    "tags",
    // English, shops: the other products a product page shows
    "related products",
    "similar items",
    "similar products",
    "similar sponsored items",
    "sponsored items",
    "people who viewed this item also viewed",
    "people who bought this item also bought",
    "customers also viewed",
    "customers also bought",
    "customers who viewed this item also viewed",
    "customers who bought this item also bought",
    "products related to this item",
    "frequently bought together",
    "recently viewed",
    "recently viewed items",
    "your recently viewed items",
    "complete the look",
    "shop similar",
    "more items to explore",
    "explore more",
    "compare with similar items",
    // German
    "das könnte dich auch interessieren",
    "das könnte sie auch interessieren",
    "das könnte ihnen auch gefallen",
    "das könnte dir auch gefallen",
    "mehr zum thema",
    "weitere artikel",
    "weitere beiträge",
    "weitere themen",
    "weitere nachrichten",
    "ähnliche artikel",
    "ähnliche beiträge",
    "verwandte artikel",
    "passend dazu",
    "lesen sie auch",
    "lies auch",
    "auch interessant",
    "zum weiterlesen",
    "empfehlungen",
    "meistgelesen",
    "kommentare",
    "kommentar schreiben",
    "schreibe einen kommentar",
    "teilen",
    "diesen artikel teilen",
    "beitrag teilen",
    // French
    "articles similaires",
    "articles liés",
    "à lire aussi",
    "lire aussi",
    "sur le même sujet",
    "vous aimerez aussi",
    "les plus lus",
    "commentaires",
    "partager",
    // Spanish, Portuguese, Italian
    "te puede interesar",
    "también te puede interesar",
    "noticias relacionadas",
    "artículos relacionados",
    "lee también",
    "más noticias",
    "comentarios",
    "compartir",
    "leia também",
    "veja também",
    "notícias relacionadas",
    "artigos relacionados",
    "leggi anche",
    "articoli correlati",
    "potrebbe interessarti",
    "commenti",
    // Dutch, Polish, Russian
    "lees ook",
    "gerelateerde artikelen",
    "zobacz też",
    "zobacz także",
    "czytaj też",
    "czytaj także",
    "podobne artykuły",
    "читайте также",
    "похожие статьи",
    "комментарии",
];

/// Leads of a see-also line: a short line that starts with one of these
/// and a colon, mostly a link, is left out.
const SEE_ALSO_LEADS: &[&str] = &[
    "read more",
    "read also",
    "also read",
    "see also",
    "related",
    "more",
    "watch",
    "listen",
    "lesen sie auch",
    "lesen sie mehr",
    "mehr lesen",
    "lies auch",
    "mehr dazu",
    "mehr zum thema",
    "auch interessant",
    "siehe auch",
    "lire aussi",
    "à lire aussi",
    "voir aussi",
    "lee también",
    "leer más",
    "ver también",
    "leia também",
    "leggi anche",
    "czytaj też",
    "czytaj także",
    "zobacz też",
    "читайте также",
];

/// `text` with white space collapsed, lower-cased, without a final `:`,
/// `…` or trailing punctuation (at most 80 characters looked at).
fn folded(text: &str) -> String {
    let mut out = String::new();
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.extend(word.chars().flat_map(char::to_lowercase));
        if out.len() > 80 {
            break;
        }
    }
    let end = out
        .trim_end_matches(|c: char| {
            c == ':' || c == '…' || c == '.' || c == '!' || c.is_whitespace()
        })
        .len();
    out.truncate(end);
    out
}

/// Whether a heading's text opens a related-articles block.
pub(crate) fn is_related_heading(text: &str) -> bool {
    let f = folded(text);
    !f.is_empty() && f.len() <= 60 && RELATED_HEADINGS.iter().any(|h| f == *h)
}

/// Whether a line's text starts as a see-also line does (`Read more:`).
pub(crate) fn is_see_also(text: &str) -> bool {
    let f = folded(text);
    SEE_ALSO_LEADS.iter().any(|lead| {
        f.strip_prefix(lead)
            .is_some_and(|rest| rest.starts_with(':') || rest.starts_with(" :"))
    })
}

#[cfg(test)]
mod tests {
    use super::{is_related_heading, is_see_also};

    #[test]
    fn headings_and_leads() {
        assert!(is_related_heading("  Related   Articles "));
        assert!(is_related_heading("Das könnte dich auch interessieren …"));
        assert!(is_related_heading("MEHR ZUM THEMA:"));
        assert!(!is_related_heading("Related work in the field of colour"));
        assert!(!is_related_heading(""));
        assert!(is_see_also("Read more: Germany's colonial crimes"));
        assert!(is_see_also("Lesen Sie auch : Der Plan"));
        assert!(!is_see_also("Read more about it in the report."));
        assert!(!is_see_also("More than 300 people came"));
    }
}
