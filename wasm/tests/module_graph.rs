//! The crate's modules depend on each other one way: no cycle among the top-level modules
//! (`format`, `query`, `scan`, `index`, `assembly`, …), nor among the submodules of one folder,
//! and no source file over 600 lines. Read from the sources: an edge is a `crate::m` path in
//! code (comments and doc links are not dependencies) or, inside a folder, a `super::sibling`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out
}

/// The file's text without comments (line comments, and so doc comments).
fn code_of(text: &str) -> String {
    text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// The identifiers that follow each `prefix` in `code`.
fn names_after<'a>(code: &'a str, prefix: &str) -> Vec<&'a str> {
    code.match_indices(prefix)
        .map(|(at, _)| {
            let rest = &code[at + prefix.len()..];
            let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(rest.len());
            &rest[..end]
        })
        .filter(|n| !n.is_empty())
        .collect()
}

/// A cycle in `graph`, if there is one (depth-first search).
fn cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(n: &str, graph: &BTreeMap<String, BTreeSet<String>>, path: &mut Vec<String>, done: &mut BTreeSet<String>) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|p| p == n) {
            return Some(path[at..].iter().cloned().chain([n.to_string()]).collect());
        }
        if done.contains(n) {
            return None;
        }
        path.push(n.to_string());
        for m in graph.get(n).into_iter().flatten() {
            if let Some(c) = visit(m, graph, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(n.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph.keys().find_map(|n| visit(n, graph, &mut Vec::new(), &mut done))
}

#[test]
fn modules_depend_one_way_and_files_stay_small() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut top: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut siblings: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for path in sources(&src) {
        let text = fs::read_to_string(&path).unwrap();
        let lines = text.lines().count();
        assert!(lines <= 600, "{} has {lines} lines (at most 600)", path.display());
        let rel: Vec<String> = path.strip_prefix(&src).unwrap().iter().map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string()).collect();
        let module = rel[0].clone();
        let code = code_of(&text);
        let from = top.entry(module.clone()).or_default();
        for m in names_after(&code, "crate::") {
            if m != module {
                from.insert(m.to_string());
            }
        }
        // Inside a folder: edges between its files, by `super::x` or `crate::folder::x`.
        if rel.len() == 2 && rel[1] != "mod" {
            let (folder, file) = (&rel[0], &rel[1]);
            let mut out: BTreeSet<String> = names_after(&code, "super::").into_iter().map(String::from).collect();
            out.extend(names_after(&code, &format!("crate::{folder}::")).into_iter().map(String::from));
            let folder_files = siblings.entry(folder.clone()).or_default();
            folder_files.entry(file.clone()).or_default().extend(out.into_iter().filter(|m| m != file));
        }
    }
    // The writers of test files serve the unit tests of the modules they write for.
    for edges in top.values_mut() {
        edges.retain(|m| m != "lib" && m != "testing");
    }
    assert_eq!(cycle(&top), None, "a cycle among the crate's top-level modules");
    for (folder, files) in &mut siblings {
        let known: BTreeSet<String> = files.keys().cloned().collect();
        for edges in files.values_mut() {
            edges.retain(|m| known.contains(m));
        }
        assert_eq!(cycle(files), None, "a cycle among the files of {folder}/");
    }
    // The check sees edges: the reader depends on the read plan's module.
    assert!(top["reader"].contains("assembly"), "{top:?}");
}
