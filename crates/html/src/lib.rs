//! One self-contained HTML page per run: inline CSS and SVG, no network, no
//! external fonts, content readable without scripts, light and dark mode, print
//! styles. Each page is rendered from the same JSON model the command prints with
//! `--format json` (one model, two renderers): the page never says anything the
//! JSON does not. Fields a page does not know yet are shown as they are, under
//! "Other fields", so that a field added to a command's JSON shows at once.
//!
//! ```
//! use cqlmodel_html::{Page, Sources, render};
//! let model = serde_json::json!([{"table": "ks.<t>", "severity": "error",
//!     "message": "too large", "notes": []}]);
//! let html = render(Page::Review, &model, &Sources::new());
//! assert!(html.starts_with("<!DOCTYPE html>"));
//! assert!(html.contains("ks.&lt;t&gt;"));
//! ```

pub mod chart;
pub mod escape;
pub mod excerpt;
pub mod generic;
pub mod json;
pub mod layout;
pub mod markup;
mod pages;
pub mod sample;

use std::collections::BTreeMap;

use serde_json::Value;

/// The commands with an HTML page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Page {
    Design,
    Review,
    Size,
    Ring,
    Diagnose,
    Migrate,
}

impl Page {
    /// The command's name.
    pub fn command(self) -> &'static str {
        match self {
            Page::Design => "design",
            Page::Review => "review",
            Page::Size => "size",
            Page::Ring => "ring",
            Page::Diagnose => "diagnose",
            Page::Migrate => "migrate",
        }
    }
}

/// The text of input files by the name the JSON gives them (`file` of a
/// finding), for source excerpts. A file not given shows no excerpt.
pub type Sources = BTreeMap<String, String>;

/// The complete HTML page of `page` for `model`, the command's JSON output.
pub fn render(page: Page, model: &Value, sources: &Sources) -> String {
    let document = match page {
        Page::Design => pages::design::document(model),
        Page::Review => pages::review::document(model, sources),
        Page::Size => pages::size::document(model),
        Page::Ring => pages::ring::document(model),
        Page::Diagnose => pages::diagnose::document(model, sources),
        Page::Migrate => pages::migrate::document(model),
    };
    document.render()
}
