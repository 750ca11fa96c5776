//! The page around every command's content: head with the inline style, title,
//! table of contents, sections, and a tiny optional script (filter, expand all,
//! open everything before printing). The content never needs the script.

use crate::escape::escape;
use crate::markup::Markup;

const STYLE: &str = include_str!("style.css");

/// Collapses, expands and filters the `details.item` blocks; opens every block
/// before printing. Without it the page reads the same (the blocks open by hand).
const SCRIPT: &str = r#"(function(){var items=document.querySelectorAll("details.item");var tools=document.getElementById("tools");if(!tools||!items.length)return;tools.hidden=false;function all(open){items.forEach(function(d){d.open=open;});}document.getElementById("expand").addEventListener("click",function(){all(true);});document.getElementById("collapse").addEventListener("click",function(){all(false);});document.getElementById("filter").addEventListener("input",function(e){var q=e.target.value.toLowerCase();items.forEach(function(d){d.hidden=q!==""&&d.textContent.toLowerCase().indexOf(q)<0;});});window.addEventListener("beforeprint",function(){all(true);});})();"#;

/// Above this many items a section's blocks start closed: the page stays short
/// and the browser's find-in-page still searches (and opens) closed blocks.
pub const OPEN_ITEMS_UP_TO: usize = 30;

/// One entry of a section's table of contents and its block.
#[derive(Debug)]
pub struct Item {
    pub id: String,
    pub title: String,
}

/// A titled part of the page.
#[derive(Debug)]
pub struct Section {
    pub id: String,
    pub title: String,
    /// Rendered body (escaped by whoever wrote it).
    pub body: String,
    /// The section's blocks, listed under it in the table of contents.
    pub items: Vec<Item>,
}

impl Section {
    pub fn new(id: &str, title: &str, body: Markup) -> Self {
        Section {
            id: id.into(),
            title: title.into(),
            body: body.into_string(),
            items: Vec::new(),
        }
    }

    pub fn with_items(mut self, items: Vec<Item>) -> Self {
        self.items = items;
        self
    }
}

/// A whole report.
#[derive(Debug)]
pub struct Document {
    /// The `<title>` and the heading.
    pub title: String,
    /// One line under the heading (a summary in numbers).
    pub summary: String,
    pub sections: Vec<Section>,
}

impl Document {
    /// The complete HTML page.
    pub fn render(&self) -> String {
        let size = self.sections.iter().map(|s| s.body.len()).sum::<usize>();
        let mut m = Markup::new();
        m.raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
            .raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
            .raw("<meta name=\"generator\" content=\"cqlmodel\">\n")
            .el("title", &[], &self.title)
            .raw("\n<style>")
            .raw(STYLE)
            .raw("</style>\n</head>\n<body>\n<header>")
            .el("h1", &[], &self.title)
            .el("p", &[("class", "sub")], &self.summary)
            .raw("</header>\n");
        self.toc(&mut m);
        m.raw("<main>\n<div class=\"tools\" id=\"tools\" hidden>")
            .raw("<input id=\"filter\" type=\"search\" placeholder=\"Filter blocks by text\" aria-label=\"Filter blocks by text\">")
            .raw("<br><button id=\"expand\" type=\"button\">Expand all</button>")
            .raw("<button id=\"collapse\" type=\"button\">Collapse all</button></div>\n");
        let mut out = m.into_string();
        out.reserve(size + SCRIPT.len() + 256);
        for s in &self.sections {
            out.push_str("<section id=\"");
            out.push_str(&escape(&s.id));
            out.push_str("\">\n<h2>");
            out.push_str(&escape(&s.title));
            out.push_str("</h2>\n");
            out.push_str(&s.body);
            out.push_str("\n</section>\n");
        }
        out.push_str("</main>\n<footer>Written by cqlmodel from the same model as its <code>--format json</code> output.</footer>\n<script>");
        out.push_str(SCRIPT);
        out.push_str("</script>\n</body>\n</html>\n");
        out
    }

    fn toc(&self, m: &mut Markup) {
        if self.sections.len() < 2 && self.sections.iter().all(|s| s.items.len() < 2) {
            return;
        }
        m.raw("<nav class=\"toc\" aria-label=\"Contents\"><details open><summary>Contents</summary><ol>");
        for s in &self.sections {
            m.open("li", &[])
                .el("a", &[("href", &format!("#{}", s.id))], &s.title);
            // A long list of blocks folds away: the contents stay one screen.
            let fold = s.items.len() > OPEN_ITEMS_UP_TO;
            if fold {
                m.raw("<details>")
                    .el("summary", &[], &format!("{} entries", s.items.len()));
            }
            if !s.items.is_empty() {
                m.raw("<ol>");
                for item in &s.items {
                    m.open("li", &[])
                        .el("a", &[("href", &format!("#{}", item.id))], &item.title)
                        .close("li");
                }
                m.raw("</ol>");
            }
            if fold {
                m.raw("</details>");
            }
            m.close("li");
        }
        m.raw("</ol></details></nav>\n");
    }
}

/// Opens a collapsible block for one item (a table, a finding group, a change):
/// `<details class="item" id=… open?><summary>title <span class=count>…</span></summary><div class=body>`.
/// Close it with [`close_item`].
pub fn open_item(m: &mut Markup, item: &Item, count: &str, open: bool) {
    let attrs: &[(&'static str, &str)] = if open {
        &[("class", "item"), ("id", &item.id), ("open", "")]
    } else {
        &[("class", "item"), ("id", &item.id)]
    };
    m.open("details", attrs)
        .open("summary", &[])
        .text(&item.title);
    if !count.is_empty() {
        m.text(" ").el("span", &[("class", "count")], count);
    }
    m.close("summary").raw("<div class=\"body\">");
}

pub fn close_item(m: &mut Markup) {
    m.raw("</div></details>\n");
}
