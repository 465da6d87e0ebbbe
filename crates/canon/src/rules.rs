//! The canonicalization rules: small, independent steps over [`Parts`].
//!
//! Every rule documents what it merges and its *false-merge risk*: the kind
//! of distinct pages it can wrongly fold into one key. A profile is a set of
//! rules; they always run in the fixed order of [`Rule::ALL`] (not the order
//! a user lists them), which is what makes any combination composable and
//! idempotent: each rule's output is a fixed point of every earlier rule.
//!
//! Rules work on the WHATWG serialization's components, so hosts are already
//! lower-cased and IDNA-mapped, IPv4/IPv6 normalized, default ports elided,
//! dot segments resolved, backslashes and tabs/newlines handled, and invalid
//! characters percent-encoded before any rule runs.
//!
//! Each rule's doc says whether it is in `safe`, the profile that promises
//! never to merge different pages, and the evidence for that: RFC 3986 §6
//! for the normalizations it defines as equivalence-preserving, Lee, Kim &
//! Hong (2005) for the measured losses of the ones it does not, and counts
//! from the corpus's links for fragments.

use crate::parts::Parts;
use crate::percent::{is_unreserved, recode};
use spinneret_url::HostKind;
use spinneret_url::percent_encoding::{FRAGMENT, PATH, QUERY, SPECIAL_QUERY, USERINFO};

/// One canonicalization step. See each variant for what it merges and its risk.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rule {
    /// Input without a scheme (`example.com/a`) is read as `http://example.com/a`.
    /// Applies only when the WHATWG parser reports a missing scheme.
    /// Risk: none for URLs; it only rescues scheme-less seeds. Not in `safe`,
    /// which reads URLs only (a scheme-less line is an error there).
    DefaultScheme,
    /// Drop `user:password@`. Risk: low; sites that serve per-user content by
    /// userinfo are rare (and credentials do not belong in a crawl key). Not
    /// in `safe`: the browser sends them as HTTP authentication, and an FTP
    /// or HTTP server answers each account with its own files.
    DropUserinfo,
    /// Fold `https` into `http` (and `wss` into `ws`), then drop the port if it
    /// is the new scheme's default. Risk: medium; most sites serve the same
    /// page on both, some serve a redirect or a different site on one: RFC
    /// 3986 §6.2.3 normalizes within a scheme only, and `http` and `https`
    /// are different origins that may reach different servers. Not in
    /// `safe`.
    FoldHttps,
    /// Drop trailing dots of a domain (`example.com.` → `example.com`).
    /// Risk: none in practice. The dot only marks the name as fully
    /// qualified (RFC 3986 §3.2.2), the DNS lookup is the same, and servers
    /// route by the name without it (nginx removes one trailing dot from
    /// `Host` before choosing the virtual server). A name with several
    /// trailing dots has an empty label and does not resolve at all.
    /// In `safe`.
    DropTrailingHostDot,
    /// Strip a leading `www.` or `wwwN.` label when a registrable name is left
    /// (`www2.example.com` → `example.com`; `www.com` stays). Risk: medium;
    /// `www` and the bare domain are usually one site, not always: they are
    /// different DNS names, which may point at different servers (a bare
    /// domain serving a landing page, `www` the application). Not in `safe`.
    StripWww,
    /// RFC 3986 §6.2.2.2: decode percent-encoded unreserved characters
    /// (`%7E` → `~`, `%41` → `A`) in userinfo, an opaque host, the path and
    /// the query. Risk: none: the RFC defines the two forms equal, and a
    /// delimiter is never unreserved, so `%2F`, `%3F`, `%26`, `%3D`, `%23`
    /// stay encoded (decoding them would split a segment or a parameter:
    /// `/a%2Fb` is one segment, `/a/b` two). The fragment is left as written:
    /// it never reaches the server, and the scripts that read it see it
    /// undecoded (`location.hash` returns the serialization), so a router may
    /// tell `#!/%41` from `#!/A`. In `safe`.
    DecodeUnreserved,
    /// Decode every percent-encoded printable ASCII character that has no
    /// delimiting role in its component and that the WHATWG serializer leaves
    /// unencoded (`%21` → `!`, `%3A` → `:`; `%2F`, `%3F`, `%26`, `%3D`, `%2B`,
    /// `%25`, `%3B` stay), and write a `%` that starts no escape as `%25`.
    /// Risk: low; servers decode them before routing, but the RFC does not
    /// promise equivalence for reserved characters (RFC 3986 §6.2.2.2 covers
    /// unreserved ones only), and a script comparing `location.hash` sees the
    /// difference. Not in `safe`.
    DecodeSafe,
    /// Remove session ids: path parameters `;jsessionid=…`, ASP.NET cookieless
    /// path segments `/(S(…))/`, and query parameters by name (`jsessionid`,
    /// `phpsessid`, `aspsessionidXXXXXXXX`, `cfid`, `cftoken`) or by name and
    /// value shape (`sid`, `sessionid`, `session_id`, `sessid` with ≥ 16
    /// id characters). Risk: low; the shape check keeps `sid=3`, but a name
    /// is only a convention (a `sid` may be a site or story id). Not in
    /// `safe`.
    RemoveSessionIds,
    /// Replace runs of `/` in the path by one `/` (special schemes only).
    /// Risk: low; a few servers route `//` differently (an empty segment is
    /// a segment to RFC 3986, and proxies that embed a URL in the path,
    /// `/fetch/http://…`, need both slashes). Not in `safe`.
    CollapseSlashes,
    /// Remove a default page name at the end of the path (`/a/index.html` →
    /// `/a/`; list configurable, compared case-insensitively). Risk: medium;
    /// assumes the server's directory index is that file: Lee et al. found
    /// this the worst of their three steps (19% of the pages lost), since
    /// `/` may be a different file or a generated listing. Not in `safe`.
    RemoveDefaultPage,
    /// Lee et al. 2005: lower-case the path. Risk: high on case-sensitive
    /// servers (most non-Windows servers): RFC 3986 §6.2.2.1 limits case
    /// normalization to the scheme, host and hex digits, and Lee et al.
    /// measured 1% of the pages lost on a 2003 crawl of Korean sites; on a
    /// case-sensitive server `/Docs` and `/docs` are different files
    /// (their `acm.org/pubs` vs `acm.org/PUBS` example). Never in `safe`.
    LowercasePath,
    /// Lee et al. 2005, option 2: append `/` to a non-empty path that does not
    /// end in one (`/a` → `/a/`). Risk: medium; `/a` and `/a/` are usually one
    /// page by redirect, but a file `/a` differs from a directory `/a/` (Lee
    /// et al.: 1% of the pages lost; RFC 3986 §6 does not make them equal).
    /// Not in `safe`.
    AddTrailingSlash,
    /// Remove trailing `/` from a path other than `/` (`/a/` → `/a`; the
    /// Internet Archive's and urlcanon's choice). Risk: as `AddTrailingSlash`
    /// (Lee et al.: 3% of the pages lost). Not in `safe`.
    RemoveTrailingSlash,
    /// Remove tracking parameters (`utm_*`, `gclid`, `fbclid`, `msclkid`, …;
    /// list configurable). Risk: low; they are meant not to select content,
    /// but the server sees them and may vary on them. Not in `safe`.
    RemoveTrackingParams,
    /// Remove empty parameters (`a=1&&b=2&` → `a=1&b=2`). Risk: none for
    /// servers that parse the query as form data (the URL Standard's
    /// `application/x-www-form-urlencoded` parser skips empty sequences);
    /// a server reading the raw query string sees the difference. Not in
    /// `safe`.
    DropEmptyParams,
    /// Lower-case the query. Risk: high; values are often case-sensitive ids.
    /// Not in `safe`.
    LowercaseQuery,
    /// Sort query parameters by name, stable: parameters with the same name
    /// keep their order (`a=2&a=1` stays, since many servers read repeated
    /// names as a list). Risk: low; order rarely selects content, but RFC 3986
    /// gives the query no structure and a server may read it positionally.
    /// Not in `safe`, which keeps order and duplicates (`a=1&a=1` is not
    /// `a=1` to a server that counts values).
    SortQuery,
    /// Sort query parameters as whole `name=value` strings (the Internet
    /// Archive's and urlcanon's order). Risk: as `SortQuery`, plus list order
    /// (`a=2&a=1` becomes `a=1&a=2`). Not in `safe`.
    SortQueryPairs,
    /// Drop an empty query (`/a?` → `/a`). Risk: none in practice, but RFC
    /// 3986 §6.2.3 keeps an empty query distinct from none (only an empty
    /// path or port is scheme-normalized), so not in `safe`.
    DropEmptyQuery,
    /// RFC 3986 §6.2.2.1: upper-case the hex digits of percent-encodings
    /// (`%2f` → `%2F`) in every component but the fragment. Risk: none: the
    /// RFC defines hex digits case-insensitive (§2.1). The fragment is left
    /// as written, for the reason given at [`Rule::DecodeUnreserved`]. In
    /// `safe`.
    UppercasePercentEncoding,
    /// Drop the fragment if it is an in-page anchor (`#top`, `#sec-2`,
    /// `#e=NavLink`, an empty `#`), keep it if it names a route: a hash-bang
    /// `#!` followed by at least one character (`#!/user/42`, the AJAX
    /// crawling scheme, where the fragment names a different page), or a
    /// fragment starting with `/` (`#/app/42`, the hash routing of Angular's
    /// `HashLocationStrategy`, Vue Router's hash history, React Router's
    /// `HashRouter`). A kept route is not rewritten (percent-encoded only as
    /// the URL Standard's fragment set does), so `#!/A`, `#!/a` and `#!/%41`
    /// stay three keys.
    ///
    /// Evidence: Google deprecated the AJAX scheme in 2015 and renders pages
    /// instead, so a crawler that runs scripts gets a different page per
    /// route, and `#/` routes are the common form of today's single-page
    /// applications. Among the distinct absolute links of the corpus
    /// (`corpus/urls`: `absolute_links.txt`, `page_urls.txt`, the raw values
    /// of `extracted_links.tsv.gz`), 25 have `#!` routes on 11 pages
    /// (twitter.com/#!/user, forum threads, checkouts) and 27 have `#/`
    /// routes on 26 pages (app stores, logins, shops); of the 4,107 others,
    /// 3,377 are anchors (`#top`), 567 `name=value` markers, mostly click
    /// tracking (`#e=NavLink`), and 163 empty. An element id starting with
    /// `/` or `!` is rare, so keeping those costs little redundancy. The
    /// empty hash-bang `#!` is dropped: the AJAX scheme maps it to an empty
    /// `_escaped_fragment_=`, the page's initial state.
    ///
    /// Risk: low: a router whose routes start with neither `!` nor `/`
    /// (Backbone's `#about`) or a view state written `#page=2` merges with
    /// the page: neither can be told from an anchor or a tracking marker by
    /// its syntax, and keeping every fragment would key each page once per
    /// anchor linked to. In `safe`.
    DropAnchor,
    /// Drop every fragment, routes included (the fragment is never sent to
    /// the server; Lee et al. and urlcanon's "aggressive" drop it). Risk:
    /// none for fetching; client-side routes (`#!/…`, `#/…`) merge. In
    /// `lee2005` and `aggressive`, not in `safe`.
    DropFragment,
}

impl Rule {
    /// Every rule, in application order.
    pub const ALL: [Rule; 22] = [
        Rule::DefaultScheme,
        Rule::DropUserinfo,
        Rule::FoldHttps,
        Rule::DropTrailingHostDot,
        Rule::StripWww,
        Rule::DecodeUnreserved,
        Rule::DecodeSafe,
        Rule::RemoveSessionIds,
        Rule::CollapseSlashes,
        Rule::RemoveDefaultPage,
        Rule::LowercasePath,
        Rule::AddTrailingSlash,
        Rule::RemoveTrailingSlash,
        Rule::RemoveTrackingParams,
        Rule::DropEmptyParams,
        Rule::LowercaseQuery,
        Rule::SortQuery,
        Rule::SortQueryPairs,
        Rule::DropEmptyQuery,
        Rule::UppercasePercentEncoding,
        Rule::DropAnchor,
        Rule::DropFragment,
    ];

    /// The rule's name in profiles, TOML files and `--rule` flags.
    pub fn name(self) -> &'static str {
        match self {
            Rule::DefaultScheme => "default-scheme",
            Rule::DropUserinfo => "drop-userinfo",
            Rule::FoldHttps => "fold-https",
            Rule::DropTrailingHostDot => "drop-trailing-host-dot",
            Rule::StripWww => "strip-www",
            Rule::DecodeUnreserved => "decode-unreserved",
            Rule::DecodeSafe => "decode-safe",
            Rule::RemoveSessionIds => "remove-session-ids",
            Rule::CollapseSlashes => "collapse-slashes",
            Rule::RemoveDefaultPage => "remove-default-page",
            Rule::LowercasePath => "lowercase-path",
            Rule::AddTrailingSlash => "add-trailing-slash",
            Rule::RemoveTrailingSlash => "remove-trailing-slash",
            Rule::RemoveTrackingParams => "remove-tracking-params",
            Rule::DropEmptyParams => "drop-empty-params",
            Rule::LowercaseQuery => "lowercase-query",
            Rule::SortQuery => "sort-query",
            Rule::SortQueryPairs => "sort-query-pairs",
            Rule::DropEmptyQuery => "drop-empty-query",
            Rule::UppercasePercentEncoding => "uppercase-percent-encoding",
            Rule::DropAnchor => "drop-anchor",
            Rule::DropFragment => "drop-fragment",
        }
    }

    /// The rule with this name.
    pub fn from_name(name: &str) -> Option<Rule> {
        Rule::ALL.into_iter().find(|r| r.name() == name)
    }

    /// A one-line description with the false-merge risk (for `--help` and reports).
    pub fn summary(self) -> &'static str {
        match self {
            Rule::DefaultScheme => "read scheme-less input as http:// (risk: none)",
            Rule::DropUserinfo => "drop user:password@ (risk: low)",
            Rule::FoldHttps => "fold https into http, wss into ws (risk: medium)",
            Rule::DropTrailingHostDot => "drop the host's trailing dot (risk: none)",
            Rule::StripWww => "strip a leading www./wwwN. label (risk: medium)",
            Rule::DecodeUnreserved => "decode %XX of unreserved characters, RFC 3986 (risk: none)",
            Rule::DecodeSafe => "decode %XX of characters with no delimiting role (risk: low)",
            Rule::RemoveSessionIds => "remove session ids from path and query (risk: low)",
            Rule::CollapseSlashes => "collapse // in the path (risk: low)",
            Rule::RemoveDefaultPage => "remove index.html-like default pages (risk: medium)",
            Rule::LowercasePath => "lower-case the path, Lee et al. (risk: high)",
            Rule::AddTrailingSlash => {
                "add / to a non-empty path, Lee et al. option 2 (risk: medium)"
            }
            Rule::RemoveTrailingSlash => "remove a trailing / (risk: medium)",
            Rule::RemoveTrackingParams => "remove utm_*, gclid, fbclid, … (risk: low)",
            Rule::DropEmptyParams => "remove empty query parameters (risk: none)",
            Rule::LowercaseQuery => "lower-case the query (risk: high)",
            Rule::SortQuery => "sort query parameters by name, stable (risk: low)",
            Rule::SortQueryPairs => "sort query parameters as name=value strings (risk: low)",
            Rule::DropEmptyQuery => "drop an empty ? (risk: none)",
            Rule::UppercasePercentEncoding => "upper-case %xx hex, RFC 3986 (risk: none)",
            Rule::DropAnchor => "drop an anchor #fragment, keep #!route and #/route (risk: low)",
            Rule::DropFragment => "drop every #fragment, routes too (risk: low)",
        }
    }

    fn bit(self) -> u32 {
        1 << (self as u32)
    }
}

/// A set of rules (bitset).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RuleSet(u32);

impl RuleSet {
    /// No rules: WHATWG parse + serialize only.
    pub const EMPTY: RuleSet = RuleSet(0);

    /// The set of `rules`.
    pub fn of(rules: &[Rule]) -> RuleSet {
        rules.iter().fold(RuleSet::EMPTY, |s, &r| s.with(r))
    }

    /// `self` plus `rule`.
    pub fn with(self, rule: Rule) -> RuleSet {
        RuleSet(self.0 | rule.bit())
    }

    /// `self` without `rule`.
    pub fn without(self, rule: Rule) -> RuleSet {
        RuleSet(self.0 & !rule.bit())
    }

    /// Whether `rule` is in the set.
    pub fn contains(self, rule: Rule) -> bool {
        self.0 & rule.bit() != 0
    }

    /// The rules, in application order.
    pub fn iter(self) -> impl Iterator<Item = Rule> {
        Rule::ALL.into_iter().filter(move |r| self.contains(*r))
    }

    /// `self` plus every rule of `other`.
    pub fn union(self, other: RuleSet) -> RuleSet {
        RuleSet(self.0 | other.0)
    }
}

/// The configurable lists some rules use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lists {
    /// Default page names for [`Rule::RemoveDefaultPage`] (compared ASCII case-insensitively).
    pub default_pages: Vec<String>,
    /// Tracking parameter names for [`Rule::RemoveTrackingParams`]; a name
    /// ending in `*` is a prefix (`utm_*`). Compared ASCII case-insensitively.
    pub tracking_params: Vec<String>,
}

/// Default page names (Lee et al. list `index.htm`, `index.html`, `default.htm`).
pub const DEFAULT_PAGES: &[&str] = &[
    "index.html",
    "index.htm",
    "index.shtml",
    "index.php",
    "index.asp",
    "index.aspx",
    "index.jsp",
    "default.htm",
    "default.html",
    "default.asp",
    "default.aspx",
];

/// Tracking parameters of ad, mail and social platforms; none selects content.
pub const TRACKING_PARAMS: &[&str] = &[
    "utm_*",       // Google Analytics campaign tags
    "gclid",       // Google Ads click id
    "gclsrc",      // Google Ads
    "dclid",       // Google Display click id
    "gbraid",      // Google Ads (iOS)
    "wbraid",      // Google Ads (iOS)
    "srsltid",     // Google Merchant
    "_ga",         // Google Analytics linker
    "_gl",         // Google Analytics linker
    "fbclid",      // Facebook click id
    "igshid",      // Instagram share id
    "msclkid",     // Microsoft Ads click id
    "yclid",       // Yandex click id
    "_openstat",   // Yandex
    "twclid",      // Twitter click id
    "ttclid",      // TikTok click id
    "li_fat_id",   // LinkedIn
    "mc_cid",      // Mailchimp campaign
    "mc_eid",      // Mailchimp recipient
    "_hsenc",      // HubSpot
    "_hsmi",       // HubSpot
    "mkt_tok",     // Marketo
    "oly_anon_id", // Omeda
    "oly_enc_id",  // Omeda
    "vero_id",     // Vero
    "rb_clickid",  // Rakuten
    "s_kwcid",     // Adobe
    "ef_id",       // Adobe
    "wickedid",    // Wicked Reports
];

impl Default for Lists {
    fn default() -> Lists {
        Lists {
            default_pages: DEFAULT_PAGES.iter().map(|s| s.to_string()).collect(),
            tracking_params: TRACKING_PARAMS.iter().map(|s| s.to_string()).collect(),
        }
    }
}

/// Scratch space reused across URLs.
#[derive(Default)]
pub(crate) struct Scratch {
    bytes: Vec<u8>,
    params: Vec<(usize, usize)>,
    string: String,
}

/// Applies `rules` (in application order) to `p`. [`Rule::DefaultScheme`]
/// acts before parsing and is ignored here.
pub(crate) fn apply(rules: RuleSet, lists: &Lists, p: &mut Parts, sc: &mut Scratch) {
    for rule in rules.iter() {
        match rule {
            Rule::DefaultScheme => {}
            Rule::DropUserinfo => {
                p.username.clear();
                p.password.clear();
            }
            Rule::FoldHttps => fold_https(p),
            Rule::DropTrailingHostDot => {
                if p.host_kind == HostKind::Domain {
                    let kept = p.host.trim_end_matches('.').len();
                    if kept > 0 {
                        p.host.truncate(kept);
                    }
                }
            }
            Rule::StripWww => strip_www(p),
            Rule::DecodeUnreserved => {
                for s in server_components(p) {
                    recode(s, &mut sc.bytes, is_unreserved, false, false);
                }
            }
            Rule::DecodeSafe => decode_safe(p, sc),
            Rule::RemoveSessionIds => {
                if !p.opaque_path {
                    remove_path_session_ids(&mut p.path, &mut sc.string);
                }
                filter_params(p, sc, |name, value| !is_session_param(name, value));
            }
            Rule::CollapseSlashes => {
                // Special schemes only: other schemes' paths may give `//` meaning.
                if p.is_special() && !p.opaque_path && p.path.contains("//") {
                    sc.string.clear();
                    let mut prev_slash = false;
                    for c in p.path.chars() {
                        if !(c == '/' && prev_slash) {
                            sc.string.push(c);
                        }
                        prev_slash = c == '/';
                    }
                    std::mem::swap(&mut p.path, &mut sc.string);
                }
            }
            Rule::RemoveDefaultPage => {
                if !p.opaque_path {
                    remove_default_page(&mut p.path, lists);
                }
            }
            Rule::LowercasePath => {
                if !p.opaque_path {
                    p.path.make_ascii_lowercase();
                }
            }
            Rule::AddTrailingSlash => {
                if !p.opaque_path && !p.path.is_empty() && !p.path.ends_with('/') {
                    p.path.push('/');
                }
            }
            Rule::RemoveTrailingSlash => {
                // With RemoveDefaultPage, removing a slash can expose a default
                // page (`/a/index.html/`): repeat both to their fixed point.
                while !p.opaque_path {
                    while p.path.len() > 1 && p.path.ends_with('/') {
                        p.path.pop();
                    }
                    if !(rules.contains(Rule::RemoveDefaultPage)
                        && remove_default_page(&mut p.path, lists))
                    {
                        break;
                    }
                }
            }
            Rule::RemoveTrackingParams => filter_params(p, sc, |name, _| {
                !is_tracking_param(name, &lists.tracking_params)
            }),
            Rule::DropEmptyParams => {
                filter_params(p, sc, |name, value| !(name.is_empty() && value.is_none()))
            }
            Rule::LowercaseQuery => {
                if let Some(q) = &mut p.query {
                    q.make_ascii_lowercase();
                }
            }
            Rule::SortQuery => sort_params(p, sc, false),
            Rule::SortQueryPairs => sort_params(p, sc, true),
            Rule::DropEmptyQuery => {
                if p.query.as_deref() == Some("") {
                    p.query = None;
                }
            }
            Rule::UppercasePercentEncoding => {
                for s in server_components(p) {
                    recode(s, &mut sc.bytes, |_| false, true, false);
                }
            }
            Rule::DropAnchor => {
                if !p.fragment.as_deref().is_some_and(is_route) {
                    p.fragment = None;
                }
            }
            Rule::DropFragment => p.fragment = None,
        }
    }
}

/// Removes a default page name ending the path; returns whether it did.
fn remove_default_page(path: &mut String, lists: &Lists) -> bool {
    let Some(slash) = path.rfind('/') else {
        return false;
    };
    let last = &path[slash + 1..];
    if lists
        .default_pages
        .iter()
        .any(|d| d.eq_ignore_ascii_case(last))
    {
        path.truncate(slash + 1);
        return true;
    }
    false
}

/// Whether a fragment names a client-side route rather than an in-page
/// anchor (see [`Rule::DropAnchor`]): `!` followed by anything, or `/…`.
fn is_route(fragment: &str) -> bool {
    matches!(fragment.as_bytes(), [b'!', _, ..] | [b'/', ..])
}

/// The percent-encoded components the server sees: userinfo, an opaque host,
/// path, query. (Special hosts are percent-decoded by the host parser; the
/// fragment stays as written, see [`Rule::DecodeUnreserved`].)
fn server_components(p: &mut Parts) -> impl Iterator<Item = &mut String> {
    let opaque_host = p.host_kind == HostKind::Opaque;
    [&mut p.username, &mut p.password]
        .into_iter()
        .chain(opaque_host.then_some(&mut p.host))
        .chain([&mut p.path])
        .chain(p.query.as_mut())
}

fn fold_https(p: &mut Parts) {
    let (to, default_port) = match p.scheme.as_str() {
        "https" => ("http", "80"),
        "wss" => ("ws", "80"),
        _ => return,
    };
    p.scheme.clear();
    p.scheme.push_str(to);
    if p.port == default_port {
        p.port.clear();
    }
}

/// Strips every leading `www.`/`wwwN.` label while a registrable name is
/// left (`www.www.example.com` → `example.com`), so that the rule gives the
/// same host on a second pass (canonicalization is idempotent).
fn strip_www(p: &mut Parts) {
    if p.host_kind != HostKind::Domain {
        return;
    }
    while strip_one_www(p) {}
}

/// Strips one leading `www.`/`wwwN.` label when a registrable name is left.
fn strip_one_www(p: &mut Parts) -> bool {
    let h = p.host.as_bytes();
    if !h.starts_with(b"www") {
        return false;
    }
    let digits = h[3..].iter().take_while(|b| b.is_ascii_digit()).count();
    let dot = 3 + digits;
    if h.get(dot) != Some(&b'.') {
        return false;
    }
    let rest = &p.host[dot + 1..];
    // Keep a registrable name: `www.com` stays, and the rest must not turn
    // into an IPv4 address on re-parse (`www.1.2` stays).
    let Some(last_dot) = rest.trim_end_matches('.').rfind('.') else {
        return false;
    };
    let last = &rest.trim_end_matches('.')[last_dot + 1..];
    if last.is_empty()
        || last
            .bytes()
            .all(|b| b.is_ascii_hexdigit() || b == b'x' || b == b'X')
            && last.bytes().any(|b| b.is_ascii_digit())
    {
        return false;
    }
    p.host.drain(..dot + 1);
    true
}

/// Whether `b`, percent-encoded in a component, may be decoded by
/// [`Rule::DecodeSafe`]: printable ASCII, not a delimiter of the component,
/// and not in the component's WHATWG percent-encode set (so the decoded form
/// is what the WHATWG parser keeps).
fn decode_safe(p: &mut Parts, sc: &mut Scratch) {
    let special = p.is_special();
    let printable = |b: u8| (0x21..0x7F).contains(&b) && b != b'%';
    let (upper, stray) = (false, true);
    let in_userinfo = |b: u8| printable(b) && !USERINFO.contains(b);
    recode(&mut p.username, &mut sc.bytes, in_userinfo, upper, stray);
    recode(&mut p.password, &mut sc.bytes, in_userinfo, upper, stray);
    if p.host_kind == HostKind::Opaque {
        recode(&mut p.host, &mut sc.bytes, is_unreserved, upper, stray);
    }
    if p.opaque_path {
        // Opaque paths use the C0 control set; only unreserved is safe to decode
        // without changing how `mailto:`/`javascript:` consumers read them.
        recode(&mut p.path, &mut sc.bytes, is_unreserved, upper, stray);
    } else {
        // `%2E` dot segments were resolved by the parser; a decoded `.` can
        // only join other characters (`%2E%2E%2E` → `...`), never form one.
        let in_path =
            |b: u8| printable(b) && !PATH.contains(b) && !matches!(b, b'/' | b'\\' | b';');
        recode(&mut p.path, &mut sc.bytes, in_path, upper, stray);
    }
    let set = if special { SPECIAL_QUERY } else { QUERY };
    if let Some(q) = &mut p.query {
        let in_query =
            |b: u8| printable(b) && !set.contains(b) && !matches!(b, b'&' | b'=' | b'+' | b';');
        recode(q, &mut sc.bytes, in_query, upper, stray);
    }
    if let Some(f) = &mut p.fragment {
        recode(
            f,
            &mut sc.bytes,
            |b| printable(b) && !FRAGMENT.contains(b),
            upper,
            stray,
        );
    }
}

// ---- query parameters -------------------------------------------------------

/// Splits the query into `&`-separated parameters (byte ranges).
fn split_params(q: &str, out: &mut Vec<(usize, usize)>) {
    out.clear();
    let mut start = 0;
    for (i, b) in q.bytes().enumerate() {
        if b == b'&' {
            out.push((start, i));
            start = i + 1;
        }
    }
    out.push((start, q.len()));
}

fn name_value(param: &str) -> (&str, Option<&str>) {
    match param.find('=') {
        Some(i) => (&param[..i], Some(&param[i + 1..])),
        None => (param, None),
    }
}

/// Keeps the parameters for which `keep(name, value)` holds. A query left
/// with no parameter by this is dropped entirely (it existed only for them).
fn filter_params(p: &mut Parts, sc: &mut Scratch, keep: impl Fn(&str, Option<&str>) -> bool) {
    let Some(q) = &p.query else { return };
    if q.is_empty() {
        return;
    }
    split_params(q, &mut sc.params);
    sc.string.clear();
    let mut kept = 0;
    let mut removed = false;
    for &(s, e) in &sc.params {
        let param = &q[s..e];
        let (name, value) = name_value(param);
        if keep(name, value) {
            if kept > 0 {
                sc.string.push('&');
            }
            sc.string.push_str(param);
            kept += 1;
        } else {
            removed = true;
        }
    }
    if !removed {
        return;
    }
    if kept == 0 {
        p.query = None;
    } else if let Some(q) = &mut p.query {
        std::mem::swap(q, &mut sc.string);
    }
}

fn sort_params(p: &mut Parts, sc: &mut Scratch, whole_pairs: bool) {
    let Some(q) = &p.query else { return };
    if !q.contains('&') {
        return;
    }
    split_params(q, &mut sc.params);
    let key = |&(s, e): &(usize, usize)| {
        let param = &q[s..e];
        if whole_pairs {
            param
        } else {
            name_value(param).0
        }
    };
    if sc.params.is_sorted_by_key(key) {
        return;
    }
    sc.params.sort_by_key(key); // stable
    sc.string.clear();
    for (i, &(s, e)) in sc.params.iter().enumerate() {
        if i > 0 {
            sc.string.push('&');
        }
        sc.string.push_str(&q[s..e]);
    }
    if let Some(q) = &mut p.query {
        std::mem::swap(q, &mut sc.string);
    }
}

fn is_tracking_param(name: &str, list: &[String]) -> bool {
    list.iter().any(|t| match t.strip_suffix('*') {
        Some(prefix) => {
            name.len() >= prefix.len() && name[..prefix.len()].eq_ignore_ascii_case(prefix)
        }
        None => name.eq_ignore_ascii_case(t),
    })
}

/// Characters of generated session ids.
fn is_id_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_')
}

/// Whether a query parameter is a session id (see [`Rule::RemoveSessionIds`]).
fn is_session_param(name: &str, value: Option<&str>) -> bool {
    let Some(value) = value.filter(|v| !v.is_empty()) else {
        return false;
    };
    let lower = |s: &str| s.eq_ignore_ascii_case(name);
    if lower("jsessionid") || lower("phpsessid") || lower("cfid") || lower("cftoken") {
        return true;
    }
    // ASP classic: ASPSESSIONID + 8 letters.
    if name.len() == 20
        && name[..12].eq_ignore_ascii_case("aspsessionid")
        && name.as_bytes()[12..]
            .iter()
            .all(|b| b.is_ascii_alphabetic())
    {
        return true;
    }
    (lower("sid") || lower("sessionid") || lower("session_id") || lower("sessid"))
        && value.len() >= 16
        && value.bytes().all(is_id_char)
}

/// Removes `;jsessionid=…` path parameters and ASP.NET cookieless session
/// segments (`/(S(x24))/`, `/(x24)/`, `/(A(x24)S(x24)F(x24))/`).
fn remove_path_session_ids(path: &mut String, tmp: &mut String) {
    if !path.contains(';') && !path.contains("/(") {
        return;
    }
    tmp.clear();
    let mut first = true;
    for seg in path.split('/') {
        if !first && is_aspnet_session_segment(seg, is_aspnet_id) {
            continue;
        }
        if !first {
            tmp.push('/');
        }
        first = false;
        // `;jsessionid=…` up to the end of the segment.
        let cut = seg
            .char_indices()
            .filter(|&(_, c)| c == ';')
            .map(|(i, _)| i)
            .find(|&i| {
                seg[i + 1..].len() >= 11 && seg[i + 1..i + 12].eq_ignore_ascii_case("jsessionid=")
            });
        match cut {
            // A segment the cut would leave as `.` or `..` keeps its
            // parameter: the URL parser would resolve it on the next pass
            // (canonicalization would not be idempotent).
            Some(i) if !is_dot_segment(&seg[..i]) => tmp.push_str(&seg[..i]),
            _ => tmp.push_str(seg),
        }
    }
    if tmp != path {
        std::mem::swap(path, tmp);
    }
}

/// The URL Standard's single- and double-dot path segments (`.`, `%2e`,
/// `..`, `.%2e`, `%2e.`, `%2e%2e`, case-insensitive).
fn is_dot_segment(seg: &str) -> bool {
    let lower = seg.to_ascii_lowercase();
    matches!(
        lower.as_str(),
        "." | "%2e" | ".." | ".%2e" | "%2e." | "%2e%2e"
    )
}

/// An ASP.NET session id as our rule reads it: 24 of `a-z0-5`.
fn is_aspnet_id(s: &str) -> bool {
    s.len() == 24
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || (b'0'..=b'5').contains(&b))
}

/// Whether `seg` is an ASP.NET cookieless session segment, `(id)` or
/// `(X(id)Y(id)…)`, with ids as `is_id` accepts them.
pub(crate) fn is_aspnet_session_segment(seg: &str, is_id: fn(&str) -> bool) -> bool {
    let Some(inner) = seg.strip_prefix('(').and_then(|s| s.strip_suffix(')')) else {
        return false;
    };
    if is_id(inner) {
        return true;
    }
    // One or more `X(id)` groups.
    let mut rest = inner;
    let mut groups = 0;
    while !rest.is_empty() {
        let b = rest.as_bytes();
        if b.len() < 27
            || !b[0].is_ascii_alphabetic()
            || b[1] != b'('
            || b[26] != b')'
            || !is_id(&rest[2..26])
        {
            return false;
        }
        rest = &rest[27..];
        groups += 1;
    }
    groups > 0
}
