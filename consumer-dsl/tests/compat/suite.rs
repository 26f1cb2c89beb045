//! Finding the pact-compatibility-suite and reading its feature files.
//!
//! The suite lives outside the project: `ACCORD_CONFORMANCE_DIR` names the
//! conformance folder, otherwise it is `../../shared/conformance` from this
//! crate's manifest. Nothing is copied into the project.

use std::path::{Path, PathBuf};

use gherkin::{Feature, GherkinEnv, Step};

/// The conformance folder holding `pact-compatibility-suite/`.
pub fn conformance_dir() -> PathBuf {
    match std::env::var_os("ACCORD_CONFORMANCE_DIR") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance"),
    }
}

/// The suite's root (`features/` and `fixtures/` below it), or why it is unusable.
pub fn locate() -> Result<PathBuf, String> {
    let root = conformance_dir().join("pact-compatibility-suite");
    for sub in ["features", "fixtures"] {
        let dir = root.join(sub);
        if !dir.is_dir() {
            return Err(format!("{} is not a directory", dir.display()));
        }
    }
    Ok(root)
}

/// One scenario ready to run: the feature's background steps, then its own.
#[derive(Debug, Clone)]
pub struct Case {
    /// The feature file relative to `features/`, e.g. `V3/matching_rules.feature`.
    pub file: String,
    pub name: String,
    /// Line of the `Scenario:` keyword in the feature file.
    pub line: usize,
    /// Tags of the feature and of the scenario, without `@`.
    pub tags: Vec<String>,
    pub steps: Vec<Step>,
}

/// Every scenario of every feature file under `features/`, in path order.
pub fn load_cases(root: &Path) -> Result<Vec<Case>, String> {
    let features = root.join("features");
    let mut files = Vec::new();
    collect_feature_files(&features, &mut files)?;
    files.sort();
    let mut cases = Vec::new();
    for path in files {
        let feature = Feature::parse_path(&path, GherkinEnv::default())
            .map_err(|e| format!("cannot parse {}: {e}", path.display()))?;
        let rel = path
            .strip_prefix(&features)
            .unwrap_or(&path)
            .to_string_lossy()
            .replace('\\', "/");
        cases.extend(cases_of(&rel, &feature));
    }
    Ok(cases)
}

fn collect_feature_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry
            .map_err(|e| format!("cannot list {}: {e}", dir.display()))?
            .path();
        if path.is_dir() {
            collect_feature_files(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "feature") {
            out.push(path);
        }
    }
    Ok(())
}

fn cases_of(file: &str, feature: &Feature) -> Vec<Case> {
    let background: Vec<Step> = feature
        .background
        .as_ref()
        .map(|b| b.steps.clone())
        .unwrap_or_default();
    let scenarios = feature
        .scenarios
        .iter()
        .chain(feature.rules.iter().flat_map(|r| r.scenarios.iter()));
    scenarios
        .map(|s| Case {
            file: file.to_string(),
            name: s.name.clone(),
            line: s.position.line,
            tags: feature.tags.iter().chain(&s.tags).cloned().collect(),
            steps: background.iter().chain(&s.steps).cloned().collect(),
        })
        .collect()
}
