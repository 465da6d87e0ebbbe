//! The binary's layout, kept true (issue 60's rules, as rust-analyzer's
//! tidy tests keep theirs): every file's imports of other files of its
//! crate are read from its source, and
//!
//! - no file imports, directly or through others, a file that imports it
//!   (in `crates/cli/src` and in `crates/python/src`);
//! - a subcommand (`commands/NAME.rs` or `commands/NAME/`) imports no
//!   other subcommand and not the command line that names them
//!   (`commands/mod.rs`), and nothing outside `commands/` imports a
//!   command but the dispatcher (`main.rs`);
//! - no hand-written file passes 1,000 lines.
//!
//! "Imports" means the paths a file's code names (`use` declarations and
//! paths in the code: `crate::a::b`, `super::c`, `self::d`, a child
//! module's name), resolved to the file of the deepest module they reach;
//! a file's comments and its `#[cfg(test)] mod tests` are left out (tests
//! may reach anywhere), and so are `mod` declarations (a module owns its
//! children).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module path from the crate root (`["commands", "links", "job"]`).
type ModPath = Vec<String>;

/// The crate's files, by module path, and its binary's root (`main.rs`,
/// whose `spinneret_cli::` paths are the library's).
struct Crate {
    src: PathBuf,
    files: BTreeMap<ModPath, PathBuf>,
    main: Option<PathBuf>,
}

impl Crate {
    fn read(src: &Path) -> Crate {
        let mut files = BTreeMap::new();
        let mut main = None;
        let mut stack = vec![src.to_path_buf()];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else if path == src.join("main.rs") {
                    main = Some(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    files.insert(module_of(src, &path), path);
                }
            }
        }
        Crate {
            src: src.to_path_buf(),
            files,
            main,
        }
    }

    /// The file of the deepest module `segments` reach from `base`.
    fn resolve(&self, base: &[String], segments: &[String]) -> &Path {
        let mut module: ModPath = base.to_vec();
        for s in segments {
            let mut next = module.clone();
            next.push(s.clone());
            if !self.files.contains_key(&next) {
                break;
            }
            module = next;
        }
        &self.files[&module]
    }

    /// Every file's imports of other files of the crate.
    fn imports(&self) -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
        let mut graph = BTreeMap::new();
        let root = Vec::new();
        let all = self
            .files
            .iter()
            .chain(self.main.iter().map(|m| (&root, m)));
        for (module, path) in all {
            let text = std::fs::read_to_string(path).unwrap();
            let code: String = text
                .split("#[cfg(test)]\nmod tests")
                .next()
                .unwrap()
                .lines()
                .filter(|l| !l.trim_start().starts_with("//"))
                .collect::<Vec<_>>()
                .join("\n");
            let code = code.as_str();
            // The module a file's `super::` and `self::` start from.
            let here: ModPath = module.clone();
            let parent: ModPath = module[..module.len().saturating_sub(1)].to_vec();
            let mut targets = BTreeSet::new();
            for p in paths(code) {
                let (base, rest): (ModPath, &[String]) = match p[0].as_str() {
                    "crate" | "spinneret_cli" => (Vec::new(), &p[1..]),
                    "super" => (parent.clone(), &p[1..]),
                    "self" => (here.clone(), &p[1..]),
                    child => {
                        let mut m = here.clone();
                        m.push(child.to_owned());
                        if !self.files.contains_key(&m) {
                            continue; // another crate
                        }
                        (here.clone(), &p[..])
                    }
                };
                let target = self.resolve(&base, rest);
                if target != path {
                    targets.insert(target.to_path_buf());
                }
            }
            graph.insert(path.clone(), targets);
        }
        graph
    }

    fn rel(&self, p: &Path) -> String {
        p.strip_prefix(&self.src).unwrap().display().to_string()
    }
}

/// The module path of a file: `a/b.rs` and `a/b/mod.rs` are `a::b`;
/// `lib.rs` and `main.rs` the root.
fn module_of(src: &Path, path: &Path) -> ModPath {
    let rel = path.strip_prefix(src).unwrap();
    let mut parts: ModPath = rel
        .iter()
        .map(|s| s.to_str().unwrap().trim_end_matches(".rs").to_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The paths a piece of code names: each `use` declaration expanded
/// (`use a::{b, c::d}` is `a::b` and `a::c::d`), and every `x::y` path
/// outside them.
fn paths(code: &str) -> Vec<ModPath> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(start) = rest.find("use ") {
        let before = &rest[..start];
        // A declaration: only white space or a visibility before it on
        // its line.
        let line = before.rsplit('\n').next().unwrap_or("").trim();
        let declaration = line.is_empty() || line == "pub" || line.starts_with("pub(");
        let end = rest[start..].find(';').map_or(rest.len(), |e| start + e);
        if declaration {
            scan_paths(before, &mut out);
            expand_use(&rest[start + 4..end], &[], &mut out);
            rest = &rest[end..];
        } else {
            scan_paths(&rest[..start + 4], &mut out);
            rest = &rest[start + 4..];
        }
    }
    scan_paths(rest, &mut out);
    out
}

/// `prefix` joined with each path of a use tree.
fn expand_use(tree: &str, prefix: &[String], out: &mut Vec<ModPath>) {
    let tree = tree.trim();
    if let Some(open) = tree.find('{') {
        let mut head = prefix.to_vec();
        head.extend(segments(tree[..open].trim_end_matches("::")));
        let inner = &tree[open + 1..tree.rfind('}').unwrap()];
        // Split at the top level's commas.
        let (mut depth, mut from) = (0, 0);
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand_use(&inner[from..i], &head, out);
                    from = i + 1;
                }
                _ => {}
            }
        }
        expand_use(&inner[from..], &head, out);
    } else if !tree.is_empty() {
        let mut path = prefix.to_vec();
        path.extend(segments(tree.split(" as ").next().unwrap()));
        if path.last().is_some_and(|s| s == "self") {
            path.pop();
        }
        if !path.is_empty() {
            out.push(path);
        }
    }
}

fn segments(path: &str) -> Vec<String> {
    path.split("::")
        .map(str::trim)
        .filter(|s| !s.is_empty() && *s != "*")
        .map(str::to_owned)
        .collect()
}

/// Every `a::b::c` path in `code`.
fn scan_paths(code: &str, out: &mut Vec<ModPath>) {
    let bytes = code.as_bytes();
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut i = 0;
    while i < bytes.len() {
        if ident(bytes[i]) && (i == 0 || !(ident(bytes[i - 1]) || bytes[i - 1] == b':')) {
            let start = i;
            while i < bytes.len() && (ident(bytes[i]) || code[i..].starts_with("::")) {
                i += if bytes[i] == b':' { 2 } else { 1 };
            }
            let path = segments(&code[start..i]);
            // (A first segment that is no module of the crate, `std`
            // or an enum's name, is dropped when resolved.)
            if path.len() >= 2 {
                out.push(path);
            }
        } else {
            i += 1;
        }
    }
}

/// The first cycle of `graph`, as the files around it.
fn cycle(graph: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Option<Vec<PathBuf>> {
    // Depth-first, colouring: 1 on the stack, 2 done.
    fn visit(
        node: &PathBuf,
        graph: &BTreeMap<PathBuf, BTreeSet<PathBuf>>,
        colour: &mut BTreeMap<PathBuf, u8>,
        stack: &mut Vec<PathBuf>,
    ) -> Option<Vec<PathBuf>> {
        colour.insert(node.clone(), 1);
        stack.push(node.clone());
        for next in graph.get(node).into_iter().flatten() {
            match colour.get(next) {
                Some(1) => {
                    let from = stack.iter().position(|n| n == next).unwrap();
                    let mut c = stack[from..].to_vec();
                    c.push(next.clone());
                    return Some(c);
                }
                Some(_) => {}
                None => {
                    if let Some(c) = visit(next, graph, colour, stack) {
                        return Some(c);
                    }
                }
            }
        }
        stack.pop();
        colour.insert(node.clone(), 2);
        None
    }
    let mut colour = BTreeMap::new();
    for node in graph.keys() {
        if !colour.contains_key(node)
            && let Some(c) = visit(node, graph, &mut colour, &mut Vec::new())
        {
            return Some(c);
        }
    }
    None
}

fn crate_src(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(name)
        .join("src")
}

fn assert_no_cycle(krate: &Crate) {
    let graph = krate.imports();
    if let Some(c) = cycle(&graph) {
        let names: Vec<String> = c.iter().map(|p| krate.rel(p)).collect();
        panic!("files that import each other: {}", names.join(" -> "));
    }
}

#[test]
fn no_file_of_the_binary_imports_itself_back() {
    assert_no_cycle(&Crate::read(&crate_src("cli")));
}

#[test]
fn no_file_of_the_python_crate_imports_itself_back() {
    assert_no_cycle(&Crate::read(&crate_src("python")));
}

/// The subcommand a file belongs to (`links` for `commands/links/job.rs`),
/// `Some("")` for `commands/mod.rs`, `None` outside `commands/`.
fn command_of(rel: &str) -> Option<&str> {
    let rest = rel.strip_prefix("commands/")?;
    if rest == "mod.rs" {
        return Some("");
    }
    Some(rest.split('/').next().unwrap().trim_end_matches(".rs"))
}

#[test]
fn only_the_dispatcher_imports_a_command() {
    let krate = Crate::read(&crate_src("cli"));
    let mut wrong = Vec::new();
    for (from, targets) in krate.imports() {
        let from = krate.rel(&from);
        for to in targets {
            let to = krate.rel(&to);
            let allowed = match (command_of(&from), command_of(&to)) {
                (_, None) => true,
                (None, Some(_)) => from == "main.rs",
                // commands/mod.rs names every command.
                (Some(""), Some(_)) => true,
                (Some(a), Some(b)) => a == b,
            };
            if !allowed {
                wrong.push(format!("{from} imports {to}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn every_subcommand_has_its_room() {
    let krate = Crate::read(&crate_src("cli"));
    let rooms: BTreeSet<String> = krate
        .files
        .keys()
        .filter(|m| m.len() == 2 && m[0] == "commands")
        .map(|m| m[1].clone())
        .collect();
    let want = [
        "canon",
        "canon_eval",
        "check",
        "get",
        "graph",
        "index",
        "links",
        "text",
        "tree",
        "wat",
    ];
    assert_eq!(rooms, want.iter().map(|s| s.to_string()).collect());
}

#[test]
fn no_file_passes_a_thousand_lines() {
    for name in ["cli", "python"] {
        let krate = Crate::read(&crate_src(name));
        for path in krate.files.values() {
            let lines = std::fs::read_to_string(path).unwrap().lines().count();
            assert!(lines <= 1000, "{}: {lines} lines", path.display());
        }
    }
}

#[test]
fn the_reader_of_imports_resolves_paths_as_rustc_does() {
    let mut got = Vec::new();
    expand_use("crate::{a, b::{c, d as e}, f::self}", &[], &mut got);
    let want: Vec<Vec<&str>> = vec![
        vec!["crate", "a"],
        vec!["crate", "b", "c"],
        vec!["crate", "b", "d"],
        vec!["crate", "f"],
    ];
    assert_eq!(got, want);
    let got = paths("use super::x::Y;\nfn f() { crate::z::w(); let a = b::c; }\n");
    let want: Vec<Vec<&str>> = vec![
        vec!["super", "x", "Y"],
        vec!["crate", "z", "w"],
        vec!["b", "c"],
    ];
    assert_eq!(got, want);
    // A cycle is found, and its files named in order.
    let g: BTreeMap<PathBuf, BTreeSet<PathBuf>> = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a"]),
        ("d", vec![]),
    ]
    .into_iter()
    .map(|(k, v)| (PathBuf::from(k), v.into_iter().map(PathBuf::from).collect()))
    .collect();
    let c = cycle(&g).unwrap();
    assert_eq!(c, ["a", "b", "c", "a"].map(PathBuf::from));
    let acyclic: BTreeMap<PathBuf, BTreeSet<PathBuf>> = [("a", vec!["b"]), ("b", vec![])]
        .into_iter()
        .map(|(k, v)| (PathBuf::from(k), v.into_iter().map(PathBuf::from).collect()))
        .collect();
    assert_eq!(cycle(&acyclic), None);
}
