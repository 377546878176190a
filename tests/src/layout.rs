//! Checks of the workspace's layout, run by `tests/tests/layout.rs` (and so by `.ci/run`):
//!
//! - [`import_cycles`]: no circle of imports between the files of a crate (or of a part of one,
//!   such as `app/src/ui`). A file *imports* another when it names an item of it by path: a
//!   `use` line, or a path in the code (`crate::a::b`, `super::x`, `child::f(…)`). Declaring a
//!   child module (`mod x;`) is not an import; test-only code (`#[cfg(test)]` items and the
//!   files of `#[cfg(test)]` modules) is left out.
//! - [`game_dispatch`]: where the code tells the games apart by their [`GameId`] — a `match`
//!   arm, an `if let`/`let … else`/`matches!` pattern, a comparison with `==`/`!=`, or a `use`
//!   of the variants. Each crate allows it in one file only, its table of games.
//!
//! Both read the sources as text: comments, string literals and test-only code are blanked
//! first, so an example in a doc comment or a test is never a finding.
//!
//! [`GameId`]: cards::core::GameId

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};

/// A module path from the crate root (`["games", "jaken", "state"]`); the root is empty.
pub type ModulePath = Vec<String>;

/// The source files of one crate, by path relative to its `src/` directory.
#[derive(Clone, Debug, Default)]
pub struct CrateSources {
    /// File path (relative, `/`-separated, e.g. `games/jaken/mod.rs`) → text.
    pub files: BTreeMap<String, String>,
}

impl CrateSources {
    /// Reads every `.rs` file under `src`.
    pub fn read(src: &Path) -> std::io::Result<CrateSources> {
        let mut files = BTreeMap::new();
        let mut stack = vec![src.to_path_buf()];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir)? {
                let path = entry?.path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let rel = relative(src, &path);
                    files.insert(rel, std::fs::read_to_string(&path)?);
                }
            }
        }
        Ok(CrateSources { files })
    }

    /// Sources given as (relative path, text) pairs, for tests.
    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> CrateSources {
        CrateSources {
            files: pairs
                .into_iter()
                .map(|(p, t)| (p.to_owned(), t.to_owned()))
                .collect(),
        }
    }
}

fn relative(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// The module a file is: `lib.rs`/`main.rs` the root, `a/mod.rs` and `a.rs` module `a`,
/// `a/b.rs` module `a::b`.
pub fn module_of(file: &str) -> ModulePath {
    let mut parts: Vec<String> = file.split('/').map(str::to_owned).collect();
    let last = parts.pop().unwrap_or_default();
    match last.as_str() {
        "mod.rs" => parts,
        "lib.rs" | "main.rs" if parts.is_empty() => parts,
        other => {
            parts.push(other.trim_end_matches(".rs").to_owned());
            parts
        }
    }
}

/// The text with comments and the insides of string and character literals blanked (newlines
/// kept, so line numbers stay right).
pub fn blank_comments_and_strings(text: &str) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let keep_lines = |s: &[char], out: &mut String| {
        for c in s {
            out.push(if *c == '\n' { '\n' } else { ' ' });
        }
    };
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            let end = b[i..]
                .iter()
                .position(|c| *c == '\n')
                .map_or(b.len(), |p| i + p);
            keep_lines(&b[i..end], &mut out);
            i = end;
        } else if c == '/' && next == Some('*') {
            let mut depth = 0usize;
            let mut j = i;
            while j < b.len() {
                if b[j] == '/' && b.get(j + 1) == Some(&'*') {
                    depth += 1;
                    j += 2;
                } else if b[j] == '*' && b.get(j + 1) == Some(&'/') {
                    depth = depth.saturating_sub(1);
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            let end = j.min(b.len());
            keep_lines(&b[i..end], &mut out);
            i = end;
        } else if c == 'r'
            && (next == Some('"') || (next == Some('#') && is_raw_start(&b, i + 1)))
            && !b
                .get(i.wrapping_sub(1))
                .is_some_and(|p| p.is_alphanumeric() || *p == '_')
        {
            // A raw string r"…", r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            j += 1; // the opening quote
            let close: Vec<char> = std::iter::once('"')
                .chain(std::iter::repeat_n('#', hashes))
                .collect();
            let end = (j..b.len())
                .find(|&k| b[k..].starts_with(&close))
                .map_or(b.len(), |k| k + close.len());
            out.push_str("\"\"");
            keep_lines(&b[(i + 2).min(end)..end], &mut out);
            i = end;
        } else if c == '"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != '"' {
                if b[j] == '\\' {
                    j += 1;
                }
                j += 1;
            }
            let end = (j + 1).min(b.len());
            out.push_str("\"\"");
            keep_lines(&b[(i + 2).min(end)..end], &mut out);
            i = end;
        } else if c == '\'' {
            // A char literal ('a', '\n', '\u{1F600}'), or a lifetime ('a): only literals close.
            let close = if next == Some('\\') {
                (i + 2..b.len().min(i + 12)).find(|&k| b[k] == '\'')
            } else if b.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match close {
                Some(k) => {
                    out.push_str("' '");
                    keep_lines(&b[(i + 3).min(k + 1)..k + 1], &mut out);
                    i = k + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn is_raw_start(b: &[char], mut i: usize) -> bool {
    while b.get(i) == Some(&'#') {
        i += 1;
    }
    b.get(i) == Some(&'"')
}

/// The code without its test-only items: every item after `#[cfg(test)]` is blanked (newlines
/// kept). Returns the code and the names of the test-only child modules declared as `mod x;`.
/// Expects comments and strings already blanked.
pub fn without_test_items(code: &str) -> (String, BTreeSet<String>) {
    let b: Vec<char> = code.chars().collect();
    let mut out: Vec<char> = b.clone();
    let mut test_mods = BTreeSet::new();
    let marker: Vec<char> = "#[cfg(test)]".chars().collect();
    let mut i = 0;
    while i + marker.len() <= b.len() {
        if b[i..].starts_with(&marker) {
            let start = i;
            let mut j = i + marker.len();
            // Further attributes of the same item.
            loop {
                while j < b.len() && b[j].is_whitespace() {
                    j += 1;
                }
                if b.get(j) == Some(&'#') && b.get(j + 1) == Some(&'[') {
                    let mut depth = 0;
                    while j < b.len() {
                        if b[j] == '[' {
                            depth += 1;
                        } else if b[j] == ']' {
                            depth -= 1;
                            if depth == 0 {
                                j += 1;
                                break;
                            }
                        }
                        j += 1;
                    }
                } else {
                    break;
                }
            }
            let rest: String = b[j..b.len().min(j + 200)].iter().collect();
            let item_words = [
                "pub",
                "mod",
                "fn",
                "impl",
                "use",
                "const",
                "static",
                "struct",
                "enum",
                "type",
                "trait",
                "macro_rules!",
            ];
            let first = rest
                .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '!'))
                .next()
                .unwrap_or("");
            if !item_words.contains(&first) {
                i += marker.len();
                continue;
            }
            // `mod name;` declares a test-only file.
            let words: Vec<&str> = rest.split_whitespace().collect();
            let mod_at = words.iter().position(|w| *w == "mod");
            if let Some(k) = mod_at
                && let Some(name) = words.get(k + 1)
                && name.ends_with(';')
                && words[..k].iter().all(|w| w.starts_with("pub"))
            {
                test_mods.insert(name.trim_end_matches(';').to_owned());
            }
            // The item ends at its `;` or at the `}` closing its first `{`.
            let mut k = j;
            let mut depth = 0i32;
            let mut end = b.len();
            while k < b.len() {
                match b[k] {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            end = k + 1;
                            break;
                        }
                    }
                    ';' if depth == 0 => {
                        end = k + 1;
                        break;
                    }
                    _ => {}
                }
                k += 1;
            }
            for c in out.iter_mut().take(end).skip(start) {
                if *c != '\n' {
                    *c = ' ';
                }
            }
            i = end;
        } else {
            i += 1;
        }
    }
    (out.into_iter().collect(), test_mods)
}

/// One file of a crate, prepared for the checks.
#[derive(Clone, Debug)]
struct Prepared {
    module: ModulePath,
    code: String,
}

/// The crate's files with their modules and blanked code, test-only files left out.
fn prepare(sources: &CrateSources) -> BTreeMap<String, Prepared> {
    let mut prepared = BTreeMap::new();
    let mut test_only: BTreeSet<ModulePath> = BTreeSet::new();
    for (path, text) in &sources.files {
        let module = module_of(path);
        let (code, test_mods) = without_test_items(&blank_comments_and_strings(text));
        for m in test_mods {
            let mut child = module.clone();
            child.push(m);
            test_only.insert(child);
        }
        prepared.insert(path.clone(), Prepared { module, code });
    }
    prepared.retain(|_, p| !test_only.iter().any(|t| p.module.starts_with(t)));
    prepared
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Every path the code names (`a::b::c`, with `use` trees expanded), as its segments.
fn paths_in(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    // `use` trees: `use a::{b, c::{d, e}};`
    let mut rest = code;
    while let Some(at) = find_word(rest, "use") {
        let after = &rest[at + 3..];
        let Some(end) = after.find(';') else { break };
        expand_use(after[..end].trim(), &mut Vec::new(), &mut out);
        rest = &after[end..];
    }
    // Paths in the code: a run of `ident::ident…` not preceded by `::` or an identifier.
    let chars: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let at_start = i == 0 || !(is_ident(chars[i - 1]) || chars[i - 1] == ':');
        if at_start && is_ident(chars[i]) {
            let mut segs = Vec::new();
            let mut j = i;
            loop {
                let s = j;
                while j < chars.len() && is_ident(chars[j]) {
                    j += 1;
                }
                segs.push(chars[s..j].iter().collect::<String>());
                if chars.get(j) == Some(&':') && chars.get(j + 1) == Some(&':') {
                    let k = j + 2;
                    if chars.get(k).is_some_and(|c| is_ident(*c)) {
                        j = k;
                        continue;
                    }
                }
                break;
            }
            if segs.len() > 1 {
                out.push(segs);
            }
            i = j.max(i + 1);
        } else {
            i += 1;
        }
    }
    out
}

fn find_word(text: &str, word: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(p) = text[from..].find(word) {
        let at = from + p;
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        if !before.is_some_and(is_ident) && !after.is_some_and(is_ident) {
            return Some(at);
        }
        from = at + word.len();
    }
    None
}

fn expand_use(tree: &str, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    let tree = tree.trim().trim_start_matches("::");
    if let Some(open) = tree.find('{') {
        let head: Vec<String> = tree[..open]
            .split("::")
            .map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty())
            .collect();
        let inner = tree[open + 1..].trim_end().trim_end_matches('}');
        let n = prefix.len();
        prefix.extend(head);
        for part in split_top(inner) {
            expand_use(&part, prefix, out);
        }
        prefix.truncate(n);
    } else {
        let path = tree.split(" as ").next().unwrap_or("").trim();
        if path.is_empty() {
            return;
        }
        let mut full = prefix.clone();
        full.extend(path.split("::").map(|s| s.trim().to_owned()));
        if full.last().is_some_and(|s| s == "self") {
            full.pop();
        }
        out.push(full);
    }
}

fn split_top(inner: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut depth = 0;
    let mut cur = String::new();
    for c in inner.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    parts.push(cur);
    parts.into_iter().filter(|p| !p.trim().is_empty()).collect()
}

/// The file-level import graph: file → the files it imports.
pub fn import_graph(sources: &CrateSources) -> BTreeMap<String, BTreeSet<String>> {
    let prepared = prepare(sources);
    let by_module: BTreeMap<&ModulePath, &String> =
        prepared.iter().map(|(f, p)| (&p.module, f)).collect();
    let mut graph = BTreeMap::new();
    for (file, p) in &prepared {
        let mut targets = BTreeSet::new();
        for path in paths_in(&p.code) {
            let Some(abs) = resolve(&p.module, &path, &by_module) else {
                continue;
            };
            // The longest prefix that is a module with a file of its own.
            let target = (1..=abs.len())
                .rev()
                .find_map(|n| by_module.get(&abs[..n].to_vec()).copied())
                .or_else(|| by_module.get(&Vec::new()).copied());
            if let Some(t) = target
                && t != file
            {
                targets.insert(t.clone());
            }
        }
        graph.insert(file.clone(), targets);
    }
    graph
}

/// The absolute module path a path names, or `None` for a path outside the crate.
fn resolve(
    here: &ModulePath,
    path: &[String],
    modules: &BTreeMap<&ModulePath, &String>,
) -> Option<ModulePath> {
    let first = path.first()?;
    let mut abs: ModulePath;
    let mut rest = path;
    match first.as_str() {
        "crate" | "$crate" => {
            abs = Vec::new();
            rest = &path[1..];
        }
        "self" => {
            abs = here.clone();
            rest = &path[1..];
        }
        "super" => {
            abs = here.clone();
            while rest.first().is_some_and(|s| s == "super") {
                abs.pop();
                rest = &rest[1..];
            }
        }
        _ => {
            // A child module of this one, named without `self::`.
            let mut child = here.clone();
            child.push(first.clone());
            if !modules.contains_key(&child) {
                return None;
            }
            abs = here.clone();
        }
    }
    abs.extend(rest.iter().cloned());
    Some(abs)
}

/// Files (of those `keep` accepts) that import each other in a circle: each circle once, as
/// the files in it, sorted.
pub fn import_cycles(sources: &CrateSources, keep: impl Fn(&str) -> bool) -> Vec<Vec<String>> {
    let graph: BTreeMap<String, BTreeSet<String>> = import_graph(sources)
        .into_iter()
        .filter(|(f, _)| keep(f))
        .map(|(f, t)| (f, t.into_iter().filter(|t| keep(t)).collect()))
        .collect();
    strongly_connected(&graph)
        .into_iter()
        .filter(|c| c.len() > 1)
        .collect()
}

/// Tarjan's strongly connected components, each sorted, the list sorted.
fn strongly_connected(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Tarjan<'g> {
        graph: &'g BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        on_stack: BTreeSet<&'g str>,
        stack: Vec<&'g str>,
        next: usize,
        out: Vec<Vec<String>>,
    }
    impl<'g> Tarjan<'g> {
        fn visit(&mut self, v: &'g str) {
            self.index.insert(v, self.next);
            self.low.insert(v, self.next);
            self.next += 1;
            self.stack.push(v);
            self.on_stack.insert(v);
            let graph = self.graph;
            for w in graph.get(v).into_iter().flatten() {
                let w = w.as_str();
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let lw = self.low[w];
                    if let Some(l) = self.low.get_mut(v) {
                        *l = (*l).min(lw);
                    }
                } else if self.on_stack.contains(w) {
                    let iw = self.index[w];
                    if let Some(l) = self.low.get_mut(v) {
                        *l = (*l).min(iw);
                    }
                }
            }
            if self.low[v] == self.index[v] {
                let mut comp = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(w);
                    comp.push(w.to_owned());
                    if w == v {
                        break;
                    }
                }
                comp.sort();
                self.out.push(comp);
            }
        }
    }
    let mut t = Tarjan {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        on_stack: BTreeSet::new(),
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !t.index.contains_key(v.as_str()) {
            t.visit(v);
        }
    }
    t.out.sort();
    t.out
}

/// A place where the code tells the games apart by their id.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Dispatch {
    /// The file, relative to the crate's `src/`.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// What was found there.
    pub what: String,
}

impl fmt::Display for Dispatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.what)
    }
}

/// Every dispatch on `GameId` outside the file `table` (relative to `src/`): a match arm, a
/// pattern in `if let`/`while let`/`let … else`/`matches!`, a comparison, or a `use` of the
/// variants (also through a `use … GameId as X` alias). Sorted by file and line.
pub fn game_dispatch(sources: &CrateSources, table: &str) -> Vec<Dispatch> {
    let mut found = Vec::new();
    for (file, p) in prepare(sources) {
        if file == table {
            continue;
        }
        let mut names = vec!["GameId".to_owned()];
        // Aliases: `use …::GameId as G;`
        let mut rest = p.code.as_str();
        while let Some(at) = rest.find("GameId as ") {
            let alias: String = rest[at + 10..]
                .chars()
                .take_while(|c| is_ident(*c))
                .collect();
            if !alias.is_empty() {
                names.push(alias);
            }
            rest = &rest[at + 10..];
        }
        for name in &names {
            found.extend(dispatch_in(&file, &p.code, name));
        }
    }
    found.sort();
    found.dedup();
    found
}

fn dispatch_in(file: &str, code: &str, name: &str) -> Vec<Dispatch> {
    let mut out = Vec::new();
    let chars: Vec<char> = code.chars().collect();
    let line_of = |at: usize| chars[..at].iter().filter(|c| **c == '\n').count() + 1;
    let prefix: Vec<char> = format!("{name}::").chars().collect();
    let mut i = 0;
    while i + prefix.len() <= chars.len() {
        let boundary = i == 0 || !is_ident(chars[i - 1]);
        if !(boundary && chars[i..].starts_with(&prefix)) {
            i += 1;
            continue;
        }
        let v_start = i + prefix.len();
        let mut v_end = v_start;
        while v_end < chars.len() && is_ident(chars[v_end]) {
            v_end += 1;
        }
        let variant: String = chars[v_start..v_end].iter().collect();
        let is_variant = variant.chars().next().is_some_and(char::is_uppercase)
            && !variant
                .chars()
                .all(|c| c.is_uppercase() || c == '_' || c.is_ascii_digit());
        let glob = chars.get(v_start) == Some(&'*') || chars.get(v_start) == Some(&'{');
        // Where the path begins: `cards::core::GameId::X` is read from `cards`.
        let mut path_start = i;
        while path_start >= 2 && chars[path_start - 1] == ':' && chars[path_start - 2] == ':' {
            let mut k = path_start - 2;
            while k > 0 && is_ident(chars[k - 1]) {
                k -= 1;
            }
            path_start = k;
        }
        let statement_start = chars[..path_start]
            .iter()
            .rposition(|c| matches!(c, ';' | '{' | '}'))
            .map_or(0, |p| p + 1);
        let before: String = chars[statement_start..path_start].iter().collect();
        let before = before.trim();
        let after: String = chars[v_end..chars.len().min(v_end + 80)].iter().collect();
        let what = if before.starts_with("use ") || before == "use" {
            (glob || is_variant).then(|| format!("`use` of {name}'s variants"))
        } else if !is_variant {
            None
        } else if is_arm(&chars[v_end..chars.len().min(v_end + 400)]) {
            Some(format!("a match arm on {name}::{variant}"))
        } else if before.ends_with("==")
            || before.ends_with("!=")
            || before.ends_with("== Some(")
            || before.ends_with("!= Some(")
            || after.trim_start().starts_with("==")
            || after.trim_start().starts_with("!=")
        {
            Some(format!("a comparison with {name}::{variant}"))
        } else if find_word(before, "let").is_some()
            && (before.contains("if let") || before.contains("while let") || after.contains("else"))
            && !before.contains('=')
        {
            Some(format!("a `let` pattern on {name}::{variant}"))
        } else if before.contains("matches!(") {
            Some(format!("a `matches!` on {name}::{variant}"))
        } else {
            None
        };
        if let Some(what) = what {
            out.push(Dispatch {
                file: file.to_owned(),
                line: line_of(i),
                what,
            });
        }
        i = v_end.max(i + 1);
    }
    out
}

/// True when what follows a variant makes it a pattern of a match arm: a `=>` (or an
/// or-pattern's `|`) comes before the expression could end (`;`, a brace, a `,` or `=` at the
/// variant's own level). Groups the variant sits in (`(Some(GameId::X), n)`) may close first.
fn is_arm(after: &[char]) -> bool {
    let mut depth = 0i32;
    for (k, c) in after.iter().enumerate() {
        let next = after.get(k + 1).copied();
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            '{' | '}' | ';' => return false,
            ',' if depth >= 0 => return false,
            '=' => return next == Some('>'),
            // An or-pattern's `|` follows the variant (or the groups it closes) at once.
            '|' => {
                return next != Some('|')
                    && after[..k]
                        .iter()
                        .all(|c| c.is_whitespace() || matches!(c, ')' | ']'));
            }
            _ => {}
        }
    }
    false
}

/// The `src/` directory of a workspace member, from this crate's manifest directory.
pub fn member_src(member: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(member)
        .join("src")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cycles(files: &[(&str, &str)]) -> Vec<Vec<String>> {
        import_cycles(&CrateSources::from_pairs(files.iter().copied()), |_| true)
    }

    #[test]
    fn modules_follow_the_file_layout() {
        assert_eq!(module_of("lib.rs"), Vec::<String>::new());
        assert_eq!(module_of("games/mod.rs"), vec!["games"]);
        assert_eq!(
            module_of("games/jaken/state.rs"),
            vec!["games", "jaken", "state"]
        );
        assert_eq!(module_of("core.rs"), vec!["core"]);
    }

    #[test]
    fn a_circle_of_use_lines_is_found_and_a_ladder_is_not() {
        let ladder = [
            ("lib.rs", "pub mod core;\npub mod decks;\npub mod games;\n"),
            ("core.rs", "pub struct GameId;\n"),
            ("decks.rs", "use crate::core::GameId;\n"),
            ("games/mod.rs", "pub mod jaken;\npub use jaken::GAME;\n"),
            (
                "games/jaken/mod.rs",
                "use crate::decks::Deck;\nuse crate::core::{GameId, Seat};\n",
            ),
        ];
        assert!(cycles(&ladder).is_empty(), "{:?}", cycles(&ladder));
        // decks dispatching to a game that imports decks: a circle of two files.
        let mut circle = ladder.to_vec();
        circle[2] = (
            "decks.rs",
            "use crate::core::GameId;\nfn check() { crate::games::jaken::check_deck(); }\n",
        );
        assert_eq!(
            cycles(&circle),
            vec![vec!["decks.rs".to_owned(), "games/jaken/mod.rs".to_owned()]]
        );
    }

    #[test]
    fn super_self_child_and_nested_use_paths_are_imports() {
        let files = [
            (
                "ui/mod.rs",
                "mod table;\nmod view;\nuse table::TableScreen;\n",
            ),
            ("ui/view.rs", "pub struct View;\n"),
            (
                "ui/table.rs",
                "use super::{view::View, widgets};\nfn f() { super::game_title(); }\n",
            ),
        ];
        let graph = import_graph(&CrateSources::from_pairs(files));
        assert_eq!(
            graph["ui/table.rs"],
            BTreeSet::from(["ui/mod.rs".to_owned(), "ui/view.rs".to_owned()])
        );
        assert_eq!(
            graph["ui/mod.rs"],
            BTreeSet::from(["ui/table.rs".to_owned()])
        );
        assert_eq!(
            cycles(&files),
            vec![vec!["ui/mod.rs".to_owned(), "ui/table.rs".to_owned()]]
        );
    }

    #[test]
    fn comments_strings_and_tests_are_not_imports() {
        let files = [
            ("a.rs", "use crate::b::X;\n"),
            (
                "b.rs",
                "//! `use crate::a::Y;` in a doc comment\n/* crate::a::Z */\nconst S: &str = \"crate::a::W\";\n#[cfg(test)]\nmod tests {\n    use crate::a::Y;\n}\n#[cfg(test)]\nmod more;\n",
            ),
            ("b/more.rs", "use crate::a::Y;\n"),
        ];
        assert!(cycles(&files).is_empty(), "{:?}", cycles(&files));
        // The same import outside a test is a circle.
        let files = [
            ("a.rs", "use crate::b::X;\n"),
            ("b.rs", "use crate::a::Y;\n"),
        ];
        assert_eq!(cycles(&files).len(), 1);
    }

    fn dispatch(code: &str) -> Vec<String> {
        game_dispatch(
            &CrateSources::from_pairs([
                ("games/mod.rs", "match g { GameId::Jaken => 1 }"),
                ("x.rs", code),
            ]),
            "games/mod.rs",
        )
        .into_iter()
        .map(|d| format!("{}:{}", d.line, d.what))
        .collect()
    }

    #[test]
    fn a_new_match_arm_on_the_game_id_is_found_outside_the_table() {
        assert_eq!(
            dispatch(
                "fn f(g: GameId) -> u8 {\n    match g {\n        GameId::Jaken => 1,\n        _ => 2,\n    }\n}\n"
            ),
            vec!["3:a match arm on GameId::Jaken"]
        );
        // Or-patterns, guards, arms inside Some(..) and tuples.
        assert_eq!(
            dispatch("match g { GameId::Yomi | GameId::JunkKen => 1, _ => 0 }"),
            vec![
                "1:a match arm on GameId::JunkKen",
                "1:a match arm on GameId::Yomi"
            ]
        );
        assert_eq!(
            dispatch("match (Some(g), 1) { (Some(GameId::SpaceJunk), n) if n > 0 => 1, _ => 0 }"),
            Vec::<String>::new()
                .into_iter()
                .chain(["1:a match arm on GameId::SpaceJunk".to_owned()])
                .collect::<Vec<_>>()
        );
        assert_eq!(
            dispatch(
                "match g {\n    cards::core::GameId::RockmanExe\n        if x => 1,\n    _ => 0,\n}"
            ),
            vec!["2:a match arm on GameId::RockmanExe"]
        );
    }

    #[test]
    fn comparisons_patterns_and_variant_imports_are_found() {
        assert_eq!(
            dispatch("if game == GameId::Jaken { }"),
            vec!["1:a comparison with GameId::Jaken"]
        );
        assert_eq!(
            dispatch("let b = GameId::Yomi != g;"),
            vec!["1:a comparison with GameId::Yomi"]
        );
        assert_eq!(
            dispatch("if let Some(GameId::Yomi) = g { }"),
            vec!["1:a `let` pattern on GameId::Yomi"]
        );
        assert_eq!(
            dispatch("let GameId::Yomi = g else { return };"),
            vec!["1:a `let` pattern on GameId::Yomi"]
        );
        assert_eq!(
            dispatch("let ok = matches!(g, GameId::Jaken);"),
            vec!["1:a `matches!` on GameId::Jaken"]
        );
        assert_eq!(
            dispatch("use cards::core::GameId::*;"),
            vec!["1:`use` of GameId's variants"]
        );
        assert_eq!(
            dispatch(
                "use cards::core::GameId as G;\nfn f(g: G) { match g { G::Jaken => {} _ => {} } }"
            ),
            vec!["2:a match arm on G::Jaken"]
        );
    }

    #[test]
    fn naming_a_game_is_not_dispatch() {
        let code = "const ID: GameId = GameId::Jaken;\nfn f() -> Vec<GameId> { GameId::ALL.into_iter().filter(|g| g.descriptor().players.contains(&3)).collect() }\nlet h = MatchHeader { game: GameId::Yomi, ..h };\nlet x = GameId::parse(\"yomi\");\n// match g { GameId::Jaken => 1 }\nconst S: &str = \"GameId::Jaken =>\";\n#[cfg(test)]\nmod tests { fn t() { assert!(g == GameId::Jaken); } }\n";
        assert!(dispatch(code).is_empty(), "{:?}", dispatch(code));
        // The table itself may dispatch.
        assert!(
            game_dispatch(
                &CrateSources::from_pairs([("games/mod.rs", "match g { GameId::Jaken => 1 }")]),
                "games/mod.rs"
            )
            .is_empty()
        );
    }
}
