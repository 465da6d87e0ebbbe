//! A page's type — article, forum, product, collection, listing,
//! documentation, service — from what its markup and its URL declare and
//! from its structure, in one walk of the document.
//!
//! Corpus builders filter by it, and main-content extraction keeps what
//! each type's reader came for (see [`crate::main_content`]). The types
//! are WCXB's (the web content extraction benchmark's): a *collection* is
//! a shop's category page or product grid, a *listing* an index of
//! repeated cards (articles, episodes, recipes), a *service* page a
//! company's page of sections (hero, features, pricing, FAQ), a
//! *documentation* page a manual or reference with its navigation.
//!
//! # The method
//!
//! Rules, strongest evidence first; the first that decides wins, and a
//! page nothing decides is an article (the type whose extraction is the
//! default, so that a doubt costs least):
//!
//! 1. **Declared types**: the schema.org `@type`s of the page's JSON-LD
//!    and its microdata `itemtype`s. A discussion or Q&A page is a forum;
//!    a collection page, an offer catalog, or a product with an aggregate
//!    offer (a price range: many products) a collection; a product a
//!    product (a collection when the page has a shop's grid — filters by
//!    the dozen, prices by the hundred —, a service when it has calls to
//!    action and no price); a technical article or API reference
//!    documentation.
//! 2. **Open Graph** `og:type`: `product` a product, `product.group` a
//!    collection.
//! 3. **The URL**: the conventions of forum software and hosts (`/t/` of
//!    Discourse, `viewtopic.php`, `/questions/`, a `forum.` or
//!    `community.` host), of documentation sites (`docs.` hosts,
//!    `/docs/`, `/reference/`, `/api/`, `/wiki/`), of shops (`/product/`,
//!    `/dp/`; `/collections/`, `/category/`) and of company sites
//!    (`/services/`, `/solutions/`, `/pricing`). A site's home page is a
//!    listing (of its latest items) or a service page (what the company
//!    offers).
//! 4. A declared article, or `og:type` `article`, is an article.
//! 5. **Structure**: code blocks with a documentation sidebar or table of
//!    contents; repeated posts with dates or reply controls (a forum); a
//!    grid of product cards or prices with filters (a collection); a buy
//!    box (a product); a large group of repeated linked siblings with
//!    little prose (a listing, or a collection when they carry prices);
//!    calls to action or sections named hero, features, pricing,
//!    testimonials or FAQ, without dates (a service page).
//!
//! Last, a collection without prices, a cart or product cards is a
//! listing (a blog's category page, a directory).
//!
//! The rules were written from the anchors' conventions (rs-trafilatura's
//! URL and markup signals, WCXB's description of its types) and their
//! thresholds set on WCXB dev's 743 labelled pages, where they classify
//! 78 % right (`tests/wcxb.rs` prints the confusion matrix; URL and
//! declared types settle forums, documentation and products, structure
//! the rest, and listings against collections or service pages stay the
//! hardest). A wrong type costs little: main content for a type only
//! replaces the default selection where the default kept too little
//! ([`crate::main_content::select_for`]).
//!
//! Invariants: total (any document gives a type); linear in the document;
//! the URL is only read, never fetched.

use std::collections::HashMap;
use std::sync::OnceLock;

use aho_corasick::AhoCorasick;
use spinneret_html::{AttrNamespace, Document, ElementRef, LocalName as L, NodeRef};

use crate::hints;
use crate::stats::{Step, walk};

/// What kind of page a document is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PageType {
    /// A news story, a blog post, an essay, a guide, a review.
    #[default]
    Article,
    /// A discussion thread or a question with its answers.
    Forum,
    /// One product: its description, specifications, price.
    Product,
    /// A shop's category page or product grid.
    Collection,
    /// An index of repeated cards: articles, episodes, recipes, results.
    Listing,
    /// A manual, an API reference, a tutorial, a wiki page.
    Documentation,
    /// A company's page of sections: what it does, features, pricing.
    Service,
    /// None of those (reserved: the classifier answers one of the seven).
    Other,
}

impl PageType {
    /// Every type, in this order.
    pub const ALL: [PageType; 8] = [
        PageType::Article,
        PageType::Forum,
        PageType::Product,
        PageType::Collection,
        PageType::Listing,
        PageType::Documentation,
        PageType::Service,
        PageType::Other,
    ];

    /// Its name: `article`, `forum`, `product`, `collection`, `listing`,
    /// `documentation`, `service`, `other` (WCXB's names).
    pub fn as_str(self) -> &'static str {
        match self {
            PageType::Article => "article",
            PageType::Forum => "forum",
            PageType::Product => "product",
            PageType::Collection => "collection",
            PageType::Listing => "listing",
            PageType::Documentation => "documentation",
            PageType::Service => "service",
            PageType::Other => "other",
        }
    }

    /// The type of a name of [`PageType::as_str`].
    pub fn from_name(name: &str) -> Option<PageType> {
        PageType::ALL.into_iter().find(|t| t.as_str() == name)
    }
}

impl std::fmt::Display for PageType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The type of `doc`, whose URL is `url`.
pub fn classify(doc: &Document, url: Option<&str>) -> PageType {
    let signals = Signals::of(doc, url);
    let decided = signals.decide();
    if std::env::var_os("SPINNERET_DEBUG_PAGE_TYPE").is_some() {
        eprintln!("page type {decided}: {signals:?}");
    }
    decided
}

/// The schema.org types a page declares, a bit each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Declared(u32);

impl Declared {
    const FORUM: u32 = 1;
    const COLLECTION: u32 = 1 << 1;
    const PRODUCT: u32 = 1 << 2;
    const AGGREGATE_OFFER: u32 = 1 << 3;
    const DOCUMENTATION: u32 = 1 << 4;
    const ARTICLE: u32 = 1 << 5;
    const ITEM_LIST: u32 = 1 << 6;
    const SERVICE: u32 = 1 << 7;
    const FAQ: u32 = 1 << 8;

    /// Adds one `@type` or `itemtype` value (a name or a URL ending in
    /// one).
    fn add(&mut self, value: &str) {
        let name = value.trim().rsplit('/').next().unwrap_or_default();
        let bit = match name {
            "DiscussionForumPosting" | "QAPage" | "SocialMediaPosting" => Self::FORUM,
            "CollectionPage" | "OfferCatalog" | "SearchResultsPage" | "ProductCollection" => {
                Self::COLLECTION
            }
            "Product" | "ProductGroup" | "IndividualProduct" | "ProductModel" | "Book"
            | "Vehicle" => Self::PRODUCT,
            "AggregateOffer" => Self::AGGREGATE_OFFER,
            "TechArticle" | "APIReference" => Self::DOCUMENTATION,
            "Article"
            | "NewsArticle"
            | "BlogPosting"
            | "Report"
            | "ScholarlyArticle"
            | "OpinionNewsArticle"
            | "ReviewNewsArticle"
            | "AnalysisNewsArticle"
            | "Recipe" => Self::ARTICLE,
            "ItemList" => Self::ITEM_LIST,
            "Service" | "ProfessionalService" | "FinancialService" | "LegalService" => {
                Self::SERVICE
            }
            "FAQPage" => Self::FAQ,
            _ => 0,
        };
        self.0 |= bit;
    }

    fn has(self, bit: u32) -> bool {
        self.0 & bit != 0
    }
}

/// What the walk counts.
#[derive(Clone, Debug, Default)]
struct Signals {
    declared: Declared,
    og: Option<PageType>,
    url: Option<UrlSays>,
    /// `pre` elements, and `code` elements outside them.
    code_blocks: u32,
    /// Elements whose class or id names documentation navigation (a
    /// sidebar of a docs theme, a table of contents).
    docs_nav: u32,
    /// Elements whose class or id names a post of a thread (`post`,
    /// `message`, `reply`, `comment-body`…).
    posts: u32,
    /// Links and buttons whose text or class is a forum's post control
    /// (`Reply`, `Quote`, `Report`, `Permalink`).
    post_controls: u32,
    /// `time` elements.
    times: u32,
    /// Prices in the text (`$12.99`, `12,99 €`, `£5`).
    prices: u32,
    /// Add-to-cart controls (text or class).
    cart: u32,
    /// Elements whose class names a product card of a grid.
    product_cards: u32,
    /// Elements whose class or id names filters, facets or sorting.
    filters: u32,
    /// Elements whose class or id names a service page's section (hero,
    /// features, pricing, testimonials, FAQ, call to action).
    service_sections: u32,
    /// Calls to action in link and button texts (`Get started`, `Book a
    /// demo`, `Contact sales`, `Free trial`).
    calls_to_action: u32,
    /// `section` elements.
    sections: u32,
    /// `p` elements and the words in them.
    paragraphs: u32,
    paragraph_words: u32,
    /// `a` elements.
    links: u32,
    /// The largest group of similar sibling elements (the same tag and
    /// first class) that each hold a link: its size.
    repeated: u32,
}

impl Signals {
    fn of(doc: &Document, url: Option<&str>) -> Signals {
        let mut s = Signals {
            url: url.and_then(from_url),
            ..Signals::default()
        };
        // By node: whether the subtree holds a link (set on the way up,
        // so that an element's children are known when it is left).
        let mut has_link = vec![false; doc.node_count()];
        // What each class value names (a page repeats its classes).
        let mut classes = Classes::default();
        // `pre` elements the walk is inside, and script-like ones.
        let (mut in_pre, mut in_script) = (0u32, 0u32);
        walk(doc.root(), |node, step| {
            let Some(e) = node.as_element() else {
                if step == Step::Enter
                    && in_script == 0
                    && let Some(text) = node.as_text()
                {
                    s.prices += prices_in(text);
                }
                return true;
            };
            let name = e.local_name();
            let script = matches!(name, Some(L::Script | L::Style | L::Template));
            match step {
                Step::Enter => {
                    s.element(e, &mut classes);
                    if name == Some(L::Code) && in_pre > 0 {
                        s.code_blocks -= 1; // a `pre`'s, counted with it
                    }
                    in_pre += u32::from(name == Some(L::Pre));
                    in_script += u32::from(script);
                }
                Step::Leave => {
                    in_pre -= u32::from(name == Some(L::Pre));
                    in_script -= u32::from(script);
                    s.repeated = s.repeated.max(repeated_children(e, &has_link, s.repeated));
                    let linked = name == Some(L::A) || has_link[node.id().index()];
                    if linked && let Some(parent) = node.parent() {
                        has_link[parent.id().index()] = true;
                    }
                }
            }
            true
        });
        s
    }

    /// Counts one element.
    fn element<'d>(&mut self, e: ElementRef<'d>, classes: &mut Classes<'d>) {
        match e.local_name() {
            Some(L::Script) => {
                let json = e
                    .attr("type")
                    .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/ld+json"));
                if json && let Some(text) = e.node().first_child().and_then(|t| t.as_text()) {
                    json_ld_types(text, &mut self.declared);
                }
                return;
            }
            Some(L::Meta) => {
                let property = e.attr("property").or_else(|| e.attr("name"));
                if property.is_some_and(|p| p.eq_ignore_ascii_case("og:type")) {
                    let content = e.attr("content").unwrap_or_default().trim();
                    self.og = match content.to_ascii_lowercase().as_str() {
                        "product" | "og:product" | "product.item" => Some(PageType::Product),
                        "product.group" => Some(PageType::Collection),
                        "article" => Some(PageType::Article),
                        _ => self.og,
                    };
                }
                return;
            }
            Some(L::Pre | L::Code) => self.code_blocks += 1,
            Some(L::Time) => self.times += 1,
            Some(L::Section) => self.sections += 1,
            Some(L::P) => {
                self.paragraphs += 1;
                self.paragraph_words += words(e.node());
            }
            Some(L::A) | Some(L::Button) => {
                if e.local_name() == Some(L::A) {
                    self.links += 1;
                }
                self.control(e);
            }
            _ => {}
        }
        // One pass over the attributes for the three read of every element.
        let (mut class, mut id) = ("", "");
        for a in e.attrs() {
            if a.namespace() != AttrNamespace::None {
                continue;
            }
            match a.local_name() {
                Some(L::Class) => class = a.value(),
                Some(L::Id) => id = a.value(),
                Some(L::Itemtype) => {
                    for value in a.value().split_ascii_whitespace() {
                        self.declared.add(value);
                    }
                }
                _ => {}
            }
        }
        if !class.is_empty() || !id.is_empty() {
            let class = classes.0.entry(class).or_insert_with(|| named_lists(class));
            self.named(*class | named_lists(id));
        }
    }

    /// Counts what an element's class and id name ([`named_lists`]):
    /// each list once per element, however many of its words they hold.
    fn named(&mut self, found: u8) {
        let counters = [
            &mut self.docs_nav,
            &mut self.posts,
            &mut self.product_cards,
            &mut self.filters,
            &mut self.service_sections,
            &mut self.cart,
        ];
        for (i, counter) in counters.into_iter().enumerate() {
            *counter += u32::from(found & (1 << i) != 0);
        }
    }

    /// Counts what a link's or button's text says.
    fn control(&mut self, e: ElementRef<'_>) {
        let Some(text) = short_text(e.node(), 40) else {
            return;
        };
        let text = text.trim().to_ascii_lowercase();
        if POST_CONTROLS.contains(&text.as_str()) {
            self.post_controls += 1;
        }
        if CART_TEXTS.iter().any(|c| text.starts_with(c)) {
            self.cart += 1;
        }
        if CALLS_TO_ACTION.iter().any(|c| text.starts_with(c)) {
            self.calls_to_action += 1;
        }
    }

    /// The type the signals give (see the module documentation): a
    /// collection without prices or a cart is a listing (a blog's
    /// category, a directory).
    fn decide(&self) -> PageType {
        match self.decide_by_rules() {
            PageType::Collection
                if self.prices < 5 && self.cart == 0 && self.product_cards == 0 =>
            {
                PageType::Listing
            }
            t => t,
        }
    }

    /// The rules in order (see the module documentation).
    fn decide_by_rules(&self) -> PageType {
        let d = self.declared;
        let prose = self.paragraph_words;
        // A shop's grid: filters by the dozen, prices by the hundred.
        let many_products = self.filters >= 50 || self.prices >= 100;
        // 1. Declared.
        if d.has(Declared::FORUM) {
            return PageType::Forum;
        }
        if d.has(Declared::COLLECTION)
            || (d.has(Declared::PRODUCT) && d.has(Declared::AGGREGATE_OFFER))
        {
            return PageType::Collection;
        }
        if d.has(Declared::PRODUCT) && !d.has(Declared::ARTICLE) {
            return if many_products {
                PageType::Collection
            } else if self.calls_to_action >= 2 && self.prices <= 2 {
                // A software or service company's "product".
                PageType::Service
            } else {
                PageType::Product
            };
        }
        if d.has(Declared::DOCUMENTATION) {
            return PageType::Documentation;
        }
        // 2. Open Graph.
        match self.og {
            Some(PageType::Product) if many_products => return PageType::Collection,
            Some(t @ (PageType::Product | PageType::Collection)) => return t,
            _ => {}
        }
        // 3. The URL.
        match self.url {
            Some(UrlSays::Type(t)) => return t,
            // A site's home page: its latest items, or what it offers.
            Some(UrlSays::Home) => {
                return if self.repeated >= 8 && prose < 25 * self.repeated || self.times >= 3 {
                    PageType::Listing
                } else {
                    PageType::Service
                };
            }
            None => {}
        }
        if d.has(Declared::ARTICLE) || self.og == Some(PageType::Article) {
            return PageType::Article;
        }
        // 4. Structure.
        if self.code_blocks >= 3 && self.docs_nav > 0 || self.code_blocks >= 30 {
            return PageType::Documentation;
        }
        if self.posts >= 3 && (self.post_controls >= 2 || self.times >= 3) {
            return PageType::Forum;
        }
        if self.product_cards >= 5 && (self.prices >= 5 || self.filters > 0)
            || self.prices >= 10 && self.filters > 0
        {
            return PageType::Collection;
        }
        if self.cart > 0 && self.prices >= 1 {
            return PageType::Product;
        }
        if self.repeated >= 8 && prose < 25 * self.repeated {
            return if self.prices >= 5 {
                PageType::Collection
            } else {
                PageType::Listing
            };
        }
        if (self.calls_to_action >= 2 || self.service_sections >= 4)
            && self.times == 0
            && prose < 1500
            || d.has(Declared::SERVICE)
        {
            return PageType::Service;
        }
        PageType::Article
    }
}

/// Substrings of a class or id of documentation navigation.
const DOCS_NAV: &[&str] = &[
    "docs-nav",
    "docs-sidebar",
    "doc-sidebar",
    "sidebar-nav",
    "table-of-contents",
    "toctree",
    "wy-nav",
    "sphinxsidebar",
    "mw-content",
    "api-reference",
    "docsearch",
    "theme-doc",
    "md-sidebar",
    "book-summary",
];

/// Substrings of a class or id of a thread's post.
const POSTS: &[&str] = &[
    "post-body",
    "postbody",
    "post-content",
    "post_message",
    "postmessage",
    "message-body",
    "messagecontent",
    "message-content",
    "bbwrapper",
    "topic-post",
    "forum-post",
    "answercell",
    "comment-body",
    "comment-content",
    "reply-content",
    "cooked",
];

/// A forum post's controls, as link or button texts.
const POST_CONTROLS: &[&str] = &[
    "reply",
    "quote",
    "report",
    "permalink",
    "like",
    "share",
    "multi-quote",
    "+quote",
];

/// Substrings of a class of a product card in a grid.
const PRODUCT_CARDS: &[&str] = &[
    "product-card",
    "productcard",
    "product-item",
    "product_item",
    "productitem",
    "product-tile",
    "producttile",
    "product-grid-item",
    "grid-product",
    "product-box",
    "product-list-item",
];

/// Substrings of a class or id of filters and sorting.
const FILTERS: &[&str] = &["facet", "filter", "refinement", "sort-by", "sortby"];

/// Substrings of a class or id of a service page's section.
const SERVICE_SECTIONS: &[&str] = &[
    "hero",
    "pricing",
    "testimonial",
    "features",
    "feature-",
    "faq",
    "cta",
    "benefits",
    "how-it-works",
    "plans",
];

/// Substrings of a class or id of an add-to-cart control.
const CART: &[&str] = &[
    "add-to-cart",
    "addtocart",
    "add_to_cart",
    "buy-now",
    "add-to-bag",
];

/// [`named_lists`] of the class values seen, by value.
#[derive(Default)]
struct Classes<'d>(HashMap<&'d str, u8, foldhash::fast::RandomState>);

/// The class and id lists, in the order of [`Signals::named`]'s
/// counters.
const NAMED_LISTS: [&[&str]; 6] = [
    DOCS_NAV,
    POSTS,
    PRODUCT_CARDS,
    FILTERS,
    SERVICE_SECTIONS,
    CART,
];

/// The lists of [`NAMED_LISTS`] as one automaton ([`hints::word_automaton`]),
/// and each pattern's list.
struct Named {
    automaton: AhoCorasick,
    list_of: Vec<u8>,
}

/// Which of [`NAMED_LISTS`] have a word in `value`, a bit each: one pass
/// over the value, however many words the lists hold.
fn named_lists(value: &str) -> u8 {
    static NAMED: OnceLock<Named> = OnceLock::new();
    if value.is_empty() {
        return 0;
    }
    let named = NAMED.get_or_init(|| {
        let mut patterns = Vec::new();
        let mut list_of = Vec::new();
        for (i, list) in (0u8..).zip(NAMED_LISTS) {
            patterns.extend_from_slice(list);
            list_of.extend(std::iter::repeat_n(i, list.len()));
        }
        Named {
            automaton: hints::word_automaton(&patterns),
            list_of,
        }
    });
    named
        .automaton
        .find_overlapping_iter(value)
        .fold(0, |found, m| {
            found | 1 << named.list_of[m.pattern().as_usize()]
        })
}

/// Add-to-cart link and button texts.
const CART_TEXTS: &[&str] = &["add to cart", "add to bag", "add to basket", "buy now"];

/// Calls to action of a company's page, as link and button texts.
const CALLS_TO_ACTION: &[&str] = &[
    "get started",
    "book a demo",
    "request a demo",
    "schedule a demo",
    "get a demo",
    "contact sales",
    "talk to sales",
    "start free",
    "free trial",
    "try it free",
    "try for free",
    "get a quote",
    "request a quote",
    "contact us",
    "book a call",
    "book a consultation",
];

/// What a URL says of its page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum UrlSays {
    /// Its conventions name a type.
    Type(PageType),
    /// It is a site's home page (no path).
    Home,
}

/// What a URL's conventions say of its page, if anything.
fn from_url(url: &str) -> Option<UrlSays> {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
    let host = host.to_ascii_lowercase();
    let path = path.to_ascii_lowercase();
    let path = path.split(['?', '#']).next().unwrap_or_default();
    let host_starts = |prefixes: &[&str]| prefixes.iter().any(|p| host.starts_with(p));
    let host_has = |names: &[&str]| names.iter().any(|n| host.contains(n));
    let segment = |names: &[&str]| path.split('/').any(|s| names.contains(&s));
    let says = |t| Some(UrlSays::Type(t));
    if host_starts(&[
        "forum.",
        "forums.",
        "community.",
        "discuss.",
        "discussion.",
        "bbs.",
        "answers.",
    ]) || host_has(&[
        "stackoverflow.",
        "stackexchange.",
        "reddit.",
        "quora.",
        "news.ycombinator.",
    ]) || segment(&[
        "forum",
        "forums",
        "thread",
        "threads",
        "t",
        "d",
        "questions",
        "discussion",
        "discussions",
    ]) || path.contains("viewtopic.php")
        || path.contains("showthread.php")
    {
        return says(PageType::Forum);
    }
    if host_starts(&[
        "docs.",
        "doc.",
        "developer.",
        "developers.",
        "wiki.",
        "learn.",
    ]) || host_has(&["readthedocs", "gitbook"])
        || segment(&[
            "docs",
            "doc",
            "documentation",
            "reference",
            "api",
            "manual",
            "wiki",
            "guide",
            "guides",
            "tutorial",
            "tutorials",
            "handbook",
        ])
    {
        return says(PageType::Documentation);
    }
    if segment(&["product", "products", "dp", "ip"])
        && !segment(&["category", "categories", "collections"])
    {
        return says(PageType::Product);
    }
    if segment(&[
        "collections",
        "collection",
        "category",
        "categories",
        "shop",
        "c",
        "browse",
        "catalog",
        "department",
    ]) {
        return says(PageType::Collection);
    }
    if segment(&[
        "services",
        "service",
        "solutions",
        "solution",
        "pricing",
        "features",
        "what-we-do",
        "industries",
    ]) {
        return says(PageType::Service);
    }
    path.is_empty().then_some(UrlSays::Home)
}

/// The words (runs of alphanumerics) in `node`'s text.
fn words(node: NodeRef<'_>) -> u32 {
    node.descendants()
        .filter_map(|d| d.as_text())
        .map(words_in)
        .sum()
}

/// The runs of alphanumeric characters in `text`: ASCII bytes tested as
/// bytes, other characters by Unicode's `Alphabetic` and `Numeric`.
fn words_in(text: &str) -> u32 {
    let mut n = 0;
    let mut in_word = false;
    let mut rest = text;
    while let Some(&b) = rest.as_bytes().first() {
        let (alphanumeric, len) = if b.is_ascii() {
            (b.is_ascii_alphanumeric(), 1)
        } else {
            let c = rest.chars().next().unwrap_or_default();
            (c.is_alphanumeric(), c.len_utf8())
        };
        n += u32::from(alphanumeric && !in_word);
        in_word = alphanumeric;
        rest = &rest[len..];
    }
    n
}

/// `node`'s text when it is at most `max` bytes (a control's label).
fn short_text(node: NodeRef<'_>, max: usize) -> Option<String> {
    let mut out = String::new();
    for d in node.descendants() {
        if let Some(t) = d.as_text() {
            if out.len() + t.len() > max {
                return None;
            }
            out.push_str(t);
        }
    }
    Some(out)
}

/// The prices in a text: a currency sign or code next to a number.
pub(crate) fn prices_in(text: &str) -> u32 {
    const SIGNS: [char; 5] = ['$', '€', '£', '¥', '₹'];
    let mut n = 0;
    // The signs' first bytes: `$`, and the lead bytes of the two-byte
    // (`£`, `¥`) and three-byte (`€`, `₹`) ones.
    for i in memchr::memchr3_iter(b'$', 0xC2, 0xE2, text.as_bytes()) {
        let Some(c) = text[i..].chars().next().filter(|c| SIGNS.contains(c)) else {
            continue;
        };
        let after = text[i + c.len_utf8()..].trim_start();
        let before = text[..i].trim_end();
        if after.starts_with(|d: char| d.is_ascii_digit())
            || before.ends_with(|d: char| d.is_ascii_digit())
        {
            n += 1;
        }
    }
    n
}

/// The size of the largest group of `e`'s children that are the same
/// element with the same first class, each holding a link (`has_link`,
/// by node), when it is larger than `beat` (else at most `beat`: an
/// element with no more than `beat` element children is not grouped).
fn repeated_children(e: ElementRef<'_>, has_link: &[bool], beat: u32) -> u32 {
    const MAX_CHILDREN: usize = 500;
    let elements = || {
        e.node()
            .children()
            .filter_map(|c| c.as_element())
            .take(MAX_CHILDREN)
    };
    if elements().nth(beat as usize).is_none() {
        return 0;
    }
    let mut groups: Vec<(&str, &str, u32)> = Vec::new();
    for c in elements() {
        let linked = c.local_name() == Some(L::A) || has_link[c.node().id().index()];
        if !linked {
            continue;
        }
        let class = c
            .attr_known(L::Class)
            .and_then(|v| v.split_ascii_whitespace().next())
            .unwrap_or_default();
        match groups
            .iter_mut()
            .find(|(tag, cls, _)| *tag == c.name() && *cls == class)
        {
            Some(g) => g.2 += 1,
            None => groups.push((c.name(), class, 1)),
        }
    }
    groups.iter().map(|g| g.2).max().unwrap_or(0)
}

/// Adds the `@type` values of a JSON-LD text (every `"@type"` key's
/// string or array of strings, at any depth) to `declared`.
fn json_ld_types(json: &str, declared: &mut Declared) {
    let mut rest = json;
    while let Some(at) = rest.find("\"@type\"") {
        rest = rest[at + 7..].trim_start();
        let Some(after) = rest.strip_prefix(':') else {
            continue;
        };
        rest = after.trim_start();
        let values = if let Some(list) = rest.strip_prefix('[') {
            list.split(']').next().unwrap_or_default()
        } else {
            rest
        };
        let mut strings = values.split('"');
        // Every other piece is inside quotes: "A", "B" → ["", A, ", ", B, …]
        strings.next();
        let single = !rest.starts_with('[');
        for (i, s) in strings.enumerate() {
            if i % 2 == 0 {
                declared.add(s);
                if single {
                    break;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(html: &str, url: Option<&str>) -> PageType {
        let doc = spinneret_html::parse_document(html, &spinneret_html::ParseOptions::default());
        classify(&doc, url)
    }

    #[test]
    fn declared_types_decide_first() {
        let ld = |t: &str| {
            format!(
                r#"<script type="application/ld+json">{{"@context":"https://schema.org","@graph":[{{"@type":"WebPage"}},{{"@type":{t}}}]}}</script><p>$5, $6, $7, $8 and $9"#
            )
        };
        assert_eq!(
            kind(&ld(r#""DiscussionForumPosting""#), None),
            PageType::Forum
        );
        assert_eq!(kind(&ld(r#"["Product","Thing"]"#), None), PageType::Product);
        assert_eq!(kind(&ld(r#""CollectionPage""#), None), PageType::Collection);
        assert_eq!(kind(&ld(r#""TechArticle""#), None), PageType::Documentation);
        let range = r#"<script type="application/ld+json">{"@type":"Product","offers":{"@type":"AggregateOffer","lowPrice":"5"}}</script><p>$5 $6 $7 $8 $9"#;
        assert_eq!(kind(range, None), PageType::Collection);
        let micro = r#"<div itemscope itemtype="https://schema.org/Product"><h1>Kettle</h1></div>"#;
        assert_eq!(kind(micro, None), PageType::Product);
        let og = r#"<meta property="og:type" content="product.group"><p>$5 $6 $7 $8 $9"#;
        assert_eq!(kind(og, None), PageType::Collection);
        // A collection page without prices or a cart is a listing.
        let blog =
            r#"<script type="application/ld+json">{"@type":"CollectionPage"}</script><p>Posts"#;
        assert_eq!(kind(blog, None), PageType::Listing);
    }

    #[test]
    fn urls_follow_the_conventions_of_forums_docs_and_shops() {
        let page = "<p>Some text: $5, $6, $7, $8 and $9.</p>";
        let of = |url| kind(page, Some(url));
        assert_eq!(
            of("https://discuss.example.org/t/slow-build/1234"),
            PageType::Forum
        );
        assert_eq!(
            of("https://example.com/forum/viewtopic.php?t=5"),
            PageType::Forum
        );
        assert_eq!(
            of("https://docs.example.com/start"),
            PageType::Documentation
        );
        assert_eq!(
            of("https://example.com/docs/api/auth"),
            PageType::Documentation
        );
        assert_eq!(
            of("https://shop.example/products/blue-kettle"),
            PageType::Product
        );
        assert_eq!(
            of("https://shop.example/collections/kettles"),
            PageType::Collection
        );
        assert_eq!(of("https://example.com/services/seo"), PageType::Service);
        assert_eq!(of("https://example.com/2024/05/rain"), PageType::Article);
    }

    #[test]
    fn structure_decides_what_nothing_declares() {
        let cards: String = (0..12)
            .map(|i| format!(r#"<li class="card"><a href="/r/{i}">Recipe {i}</a></li>"#))
            .collect();
        assert_eq!(kind(&format!("<ul>{cards}</ul>"), None), PageType::Listing);
        let grid: String = (0..12)
            .map(|i| {
                format!(
                    r#"<div class="product-card"><a href="/p/{i}">Kettle {i}</a> $1{i}.99</div>"#
                )
            })
            .collect();
        assert_eq!(
            kind(&format!("<div>{grid}</div>"), None),
            PageType::Collection
        );
        let docs = r#"<nav class="docs-sidebar"><a href=/a>A</a></nav><pre>a</pre><pre>b</pre><p><code>c</code>"#;
        assert_eq!(kind(docs, None), PageType::Documentation);
        let article = "<article><h1>Rain</h1><p>It rained all day in the valley.</p></article>";
        assert_eq!(kind(article, None), PageType::Article);
    }

    #[test]
    fn prices_are_signs_next_to_numbers() {
        assert_eq!(prices_in("$12.99, 5 € and £ 3 but not $x or €"), 3);
        assert_eq!(PageType::from_name("listing"), Some(PageType::Listing));
        assert_eq!(PageType::Service.to_string(), "service");
    }
}
