//! Chebotko diagrams as SVG: the notation of Artem Chebotko's "A Big Data Modeling
//! Methodology for Apache Cassandra" (2015) for a table's physical layout, and the
//! query → table flow of the application workflow.
//!
//! A table is a box: the table name in the title bar, then one row per column
//! (`name type`) with its key marker at the right: `K` partition key, `C↑` / `C↓`
//! clustering column ascending / descending, `S` static. The queries the table
//! serves are listed above the box.
//!
//! Output is deterministic: text is set in a monospace font at a fixed size and
//! every width is computed from character counts, never measured, so the same input
//! gives byte-identical SVG (snapshot-friendly) on any machine.

use std::collections::{HashMap, HashSet};

/// What a column is in the table's primary key, in Chebotko's notation (the
/// designed tables' column roles are the same type).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    PartitionKey,
    ClusteringAsc,
    ClusteringDesc,
    Static,
    Regular,
}

impl Role {
    /// The marker drawn at the right of the column's row (empty for a regular column).
    pub fn marker(self) -> &'static str {
        match self {
            Role::PartitionKey => "K",
            Role::ClusteringAsc => "C↑",
            Role::ClusteringDesc => "C↓",
            Role::Static => "S",
            Role::Regular => "",
        }
    }
}

/// One column of a diagrammed table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiagramColumn {
    pub name: String,
    pub cql_type: String,
    pub role: Role,
}

/// A table as the diagram shows it. Columns are drawn in the order given; Chebotko's
/// convention is partition key, clustering columns, static columns, then the rest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableDiagram {
    pub name: String,
    pub columns: Vec<DiagramColumn>,
    /// Names of the queries the table serves.
    pub queries: Vec<String>,
}

const FONT_FAMILY: &str = "DejaVu Sans Mono, Menlo, Consolas, monospace";
const FONT_SIZE: u64 = 13;
/// Advance of one character cell. A monospace glyph is about 0.6 em (7.8 px at
/// 13 px), so 8 px per cell never lets text overrun the box computed for it.
const CHAR_WIDTH: u64 = 8;
const LABEL_FONT_SIZE: u64 = 12;
const MARGIN: u64 = 10;
const PAD: u64 = 8;
const COLUMN_GAP: u64 = 16;
const TITLE_HEIGHT: u64 = 28;
const ROW_HEIGHT: u64 = 22;
const LABEL_LINE_HEIGHT: u64 = 18;
/// The widest marker (`C↑`, `C↓`) is two cells.
const MARKER_CELLS: u64 = 2;
/// Distance from a row's top to the text baseline, centring 13 px text in a 22 px row.
const ROW_BASELINE: u64 = 15;
const TITLE_BASELINE: u64 = 19;

const INK: &str = "#222222";
const MUTED: &str = "#555555";
const TITLE_FILL: &str = "#dde6f3";
const BODY_FILL: &str = "#ffffff";
const QUERY_FILL: &str = "#f4f4f4";

/// Renders one table as a Chebotko table box.
pub fn render_svg(diagram: &TableDiagram) -> String {
    let name_cells = max_cells(diagram.columns.iter().map(|c| c.name.as_str()));
    let type_cells = max_cells(diagram.columns.iter().map(|c| c.cql_type.as_str()));
    let name_x = PAD;
    let type_x = name_x + name_cells * CHAR_WIDTH + COLUMN_GAP;
    let marker_x = type_x + type_cells * CHAR_WIDTH + COLUMN_GAP;
    let rows_width = marker_x + MARKER_CELLS * CHAR_WIDTH + PAD;
    let title_width = 2 * PAD + cells(&diagram.name) * CHAR_WIDTH;
    let content_width = rows_width.max(title_width);

    let label_lines = wrap_names(&diagram.queries, content_width / CHAR_WIDTH);
    let label_width = max_cells(label_lines.iter().map(String::as_str)) * CHAR_WIDTH;
    let box_width = content_width.max(label_width);

    let label_height = count(label_lines.len()) * LABEL_LINE_HEIGHT;
    let box_x = MARGIN;
    let box_y = MARGIN + label_height;
    // Half a pad under the last row keeps descenders off the border.
    let box_height = TITLE_HEIGHT + count(diagram.columns.len()) * ROW_HEIGHT + PAD / 2;
    let width = box_width + 2 * MARGIN;
    let height = box_y + box_height + MARGIN;

    let mut svg = Svg::open(
        width,
        height,
        &format!("Chebotko diagram of table {}", diagram.name),
    );
    for (i, line) in label_lines.iter().enumerate() {
        let baseline = MARGIN + count(i) * LABEL_LINE_HEIGHT + LABEL_FONT_SIZE;
        svg.text(
            box_x,
            baseline,
            line,
            &format!(
                r#"class="queries" font-size="{LABEL_FONT_SIZE}" font-style="italic" fill="{MUTED}""#
            ),
        );
    }
    svg.rect(box_x, box_y, box_width, box_height, BODY_FILL, "none");
    svg.rect(box_x, box_y, box_width, TITLE_HEIGHT, TITLE_FILL, "none");
    svg.line(
        box_x,
        box_y + TITLE_HEIGHT,
        box_x + box_width,
        box_y + TITLE_HEIGHT,
        "",
    );
    svg.text(
        box_x + box_width / 2,
        box_y + TITLE_BASELINE,
        &diagram.name,
        r#"class="table-name" font-weight="bold" text-anchor="middle""#,
    );
    for (i, column) in diagram.columns.iter().enumerate() {
        let baseline = box_y + TITLE_HEIGHT + count(i) * ROW_HEIGHT + ROW_BASELINE;
        svg.open_group("column");
        svg.text(box_x + name_x, baseline, &column.name, r#"class="name""#);
        svg.text(
            box_x + type_x,
            baseline,
            &column.cql_type,
            &format!(r#"class="type" fill="{MUTED}""#),
        );
        svg.text(
            box_x + marker_x,
            baseline,
            column.role.marker(),
            r#"class="marker" font-weight="bold""#,
        );
        svg.close_group();
    }
    svg.rect(box_x, box_y, box_width, box_height, "none", INK);
    svg.finish()
}

const FLOW_BOX_HEIGHT: u64 = 28;
const FLOW_BOX_GAP: u64 = 12;
/// Horizontal room between the query column and the table column for the arrows.
const FLOW_ARROW_SPAN: u64 = 120;
const FLOW_HEADER_HEIGHT: u64 = 24;
const ARROW_ID: &str = "cqlmodel-flow-arrow";

/// Renders the query → table flow: each distinct query once on the left, each
/// distinct table once on the right (both in order of first appearance), and one
/// arrow per distinct `(query, table)` pair.
pub fn render_flow_svg(flows: &[(String, String)]) -> String {
    // Indexed, not searched: one flow per read, and a linear search per
    // flow made the diagram of a 10,000-table design quadratic.
    let mut queries = FirstSeen::default();
    let mut tables = FirstSeen::default();
    let mut arrows: Vec<(usize, usize)> = Vec::new();
    let mut drawn: HashSet<(usize, usize)> = HashSet::new();
    for (query, table) in flows {
        let q = queries.position_or_push(query);
        let t = tables.position_or_push(table);
        if drawn.insert((q, t)) {
            arrows.push((q, t));
        }
    }
    let (queries, tables) = (queries.items, tables.items);

    let query_width = flow_box_width(&queries, "Queries");
    let table_width = flow_box_width(&tables, "Tables");
    let query_x = MARGIN;
    let table_x = query_x + query_width + FLOW_ARROW_SPAN;
    let query_column = column_height(queries.len());
    let table_column = column_height(tables.len());
    let tallest = query_column.max(table_column);
    let top = MARGIN + FLOW_HEADER_HEIGHT;
    // The shorter column is centred against the taller one so arrows fan out evenly.
    let query_top = top + (tallest - query_column) / 2;
    let table_top = top + (tallest - table_column) / 2;
    let width = table_x + table_width + MARGIN;
    let height = top + tallest + MARGIN;

    let mut svg = Svg::open(width, height, "Query to table flow");
    svg.raw(&format!(
        r#"<defs><marker id="{ARROW_ID}" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto"><path d="M 0 0 L 10 5 L 0 10 z" fill="{INK}"/></marker></defs>"#
    ));
    let header = format!(r#"class="header" font-weight="bold" fill="{MUTED}""#);
    svg.text(query_x, MARGIN + FONT_SIZE, "Queries", &header);
    svg.text(table_x, MARGIN + FONT_SIZE, "Tables", &header);
    for &(q, t) in &arrows {
        let from_y = query_top + flow_box_center(q);
        let to_y = table_top + flow_box_center(t);
        svg.line(
            query_x + query_width,
            from_y,
            table_x,
            to_y,
            &format!(r#"class="flow" marker-end="url(#{ARROW_ID})""#),
        );
    }
    for (i, query) in queries.iter().enumerate() {
        let y = query_top + count(i) * (FLOW_BOX_HEIGHT + FLOW_BOX_GAP);
        svg.open_group("query");
        svg.rounded_rect(query_x, y, query_width, FLOW_BOX_HEIGHT, QUERY_FILL);
        svg.text(query_x + PAD, y + TITLE_BASELINE, query, r#"class="name""#);
        svg.close_group();
    }
    for (i, table) in tables.iter().enumerate() {
        let y = table_top + count(i) * (FLOW_BOX_HEIGHT + FLOW_BOX_GAP);
        svg.open_group("table");
        svg.rect(table_x, y, table_width, FLOW_BOX_HEIGHT, TITLE_FILL, INK);
        svg.text(
            table_x + PAD,
            y + TITLE_BASELINE,
            table,
            r#"class="name" font-weight="bold""#,
        );
        svg.close_group();
    }
    svg.finish()
}

/// Distinct names in order of first appearance, with each one's position.
#[derive(Default)]
struct FirstSeen<'a> {
    items: Vec<&'a str>,
    positions: HashMap<&'a str, usize>,
}

impl<'a> FirstSeen<'a> {
    fn position_or_push(&mut self, item: &'a str) -> usize {
        *self.positions.entry(item).or_insert_with(|| {
            self.items.push(item);
            self.items.len() - 1
        })
    }
}

fn flow_box_width(names: &[&str], header: &str) -> u64 {
    let widest = max_cells(names.iter().copied()).max(cells(header));
    widest * CHAR_WIDTH + 2 * PAD
}

fn column_height(boxes: usize) -> u64 {
    match count(boxes) {
        0 => 0,
        n => n * FLOW_BOX_HEIGHT + (n - 1) * FLOW_BOX_GAP,
    }
}

fn flow_box_center(index: usize) -> u64 {
    count(index) * (FLOW_BOX_HEIGHT + FLOW_BOX_GAP) + FLOW_BOX_HEIGHT / 2
}

/// Query names joined by ", " and broken into lines of at most `max_cells` cells;
/// a single name longer than that gets a line of its own (the box widens for it).
fn wrap_names(names: &[String], max_cells: u64) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    let last = names.len().saturating_sub(1);
    for (i, name) in names.iter().enumerate() {
        let piece = if i == last {
            name.clone()
        } else {
            format!("{name},")
        };
        if current.is_empty() {
            current = piece;
        } else if cells(&current) + 1 + cells(&piece) <= max_cells {
            current.push(' ');
            current.push_str(&piece);
        } else {
            lines.push(std::mem::replace(&mut current, piece));
        }
    }
    if !current.is_empty() {
        lines.push(current);
    }
    lines
}

fn count(n: usize) -> u64 {
    u64::try_from(n).unwrap_or(u64::MAX)
}

fn max_cells<'a>(texts: impl Iterator<Item = &'a str>) -> u64 {
    texts.map(cells).max().unwrap_or(0)
}

/// Character cells a text takes in a monospace font: East Asian wide and fullwidth
/// characters take two, everything else one.
fn cells(text: &str) -> u64 {
    text.chars().map(|c| if is_wide(c) { 2 } else { 1 }).sum()
}

fn is_wide(c: char) -> bool {
    matches!(c,
        '\u{1100}'..='\u{115F}'
        | '\u{2E80}'..='\u{303E}'
        | '\u{3041}'..='\u{33FF}'
        | '\u{3400}'..='\u{4DBF}'
        | '\u{4E00}'..='\u{9FFF}'
        | '\u{A000}'..='\u{A4CF}'
        | '\u{AC00}'..='\u{D7A3}'
        | '\u{F900}'..='\u{FAFF}'
        | '\u{FE30}'..='\u{FE4F}'
        | '\u{FF00}'..='\u{FF60}'
        | '\u{FFE0}'..='\u{FFE6}'
        | '\u{1F300}'..='\u{1F64F}'
        | '\u{20000}'..='\u{3FFFD}')
}

/// Escapes text for XML character data and attribute values. Characters XML 1.0
/// cannot carry at all, not even as references (most C0 controls, U+FFFE, U+FFFF),
/// become U+FFFD so that any identifier still yields a well-formed document.
fn escape_xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' => out.push(c),
            '\u{10000}'..='\u{10FFFF}' => out.push(c),
            _ => out.push('\u{FFFD}'),
        }
    }
    out
}

/// A minimal SVG writer: every attribute value it interpolates is a number or a
/// constant of this module, and every piece of caller text goes through `escape_xml`.
struct Svg {
    out: String,
}

impl Svg {
    fn open(width: u64, height: u64, title: &str) -> Self {
        let mut out = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="{FONT_FAMILY}" font-size="{FONT_SIZE}">"#
        );
        out.push('\n');
        out.push_str(&format!("<title>{}</title>\n", escape_xml(title)));
        Svg { out }
    }

    fn raw(&mut self, markup: &str) {
        self.out.push_str(markup);
        self.out.push('\n');
    }

    fn rect(&mut self, x: u64, y: u64, width: u64, height: u64, fill: &str, stroke: &str) {
        self.raw(&format!(
            r#"<rect x="{x}" y="{y}" width="{width}" height="{height}" fill="{fill}" stroke="{stroke}"/>"#
        ));
    }

    fn rounded_rect(&mut self, x: u64, y: u64, width: u64, height: u64, fill: &str) {
        self.raw(&format!(
            r#"<rect x="{x}" y="{y}" width="{width}" height="{height}" rx="10" fill="{fill}" stroke="{INK}"/>"#
        ));
    }

    fn line(&mut self, x1: u64, y1: u64, x2: u64, y2: u64, attributes: &str) {
        let separator = if attributes.is_empty() { "" } else { " " };
        self.raw(&format!(
            r#"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{INK}"{separator}{attributes}/>"#
        ));
    }

    fn text(&mut self, x: u64, y: u64, content: &str, attributes: &str) {
        self.raw(&format!(
            r#"<text x="{x}" y="{y}" {attributes}>{}</text>"#,
            escape_xml(content)
        ));
    }

    fn open_group(&mut self, class: &str) {
        self.raw(&format!(r#"<g class="{class}">"#));
    }

    fn close_group(&mut self) {
        self.raw("</g>");
    }

    fn finish(mut self) -> String {
        self.out.push_str("</svg>\n");
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use roxmltree::{Document, Node};

    fn column(name: &str, cql_type: &str, role: Role) -> DiagramColumn {
        DiagramColumn {
            name: name.to_string(),
            cql_type: cql_type.to_string(),
            role,
        }
    }

    fn temp_by_device() -> TableDiagram {
        TableDiagram {
            name: "temp_by_device".to_string(),
            columns: vec![
                column("device_id", "text", Role::PartitionKey),
                column("day", "date", Role::PartitionKey),
                column("ts", "timestamp", Role::ClusteringDesc),
                column("sensor", "text", Role::ClusteringAsc),
                column("location", "text", Role::Static),
                column("temp", "double", Role::Regular),
            ],
            queries: vec!["Q1_last_24h".to_string(), "Q2_reading_at".to_string()],
        }
    }

    fn iot_flows() -> Vec<(String, String)> {
        [
            ("Q1_last_24h", "temp_by_device"),
            ("Q2_reading_at", "temp_by_device"),
            ("Q3_over_threshold_today", "alerts_by_day"),
        ]
        .iter()
        .map(|(q, t)| (q.to_string(), t.to_string()))
        .collect()
    }

    fn parse(svg: &str) -> Document<'_> {
        match Document::parse(svg) {
            Ok(doc) => doc,
            Err(e) => panic!("not well-formed XML: {e}\n{svg}"),
        }
    }

    fn number(node: Node<'_, '_>, attribute: &str) -> u64 {
        node.attribute(attribute)
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("<{}> lacks numeric {attribute}", node.tag_name().name()))
    }

    fn has_class(node: Node<'_, '_>, class: &str) -> bool {
        node.is_element() && node.attribute("class") == Some(class)
    }

    fn elements<'a, 'i>(doc: &'a Document<'i>, class: &str) -> Vec<Node<'a, 'i>> {
        doc.descendants().filter(|n| has_class(*n, class)).collect()
    }

    fn texts(doc: &Document<'_>, class: &str) -> Vec<String> {
        elements(doc, class)
            .iter()
            .map(|n| n.text().unwrap_or_default().to_string())
            .collect()
    }

    /// `(name, type, marker)` of every column row, top to bottom.
    fn rows(doc: &Document<'_>) -> Vec<(String, String, String)> {
        elements(doc, "column")
            .iter()
            .map(|row| {
                let text = |class: &str| {
                    row.children()
                        .find(|n| has_class(*n, class))
                        .and_then(|n| n.text())
                        .unwrap_or_default()
                        .to_string()
                };
                (text("name"), text("type"), text("marker"))
            })
            .collect()
    }

    /// The table box: the outline drawn last, over the fills.
    fn outline<'a, 'i>(doc: &'a Document<'i>) -> Node<'a, 'i> {
        doc.descendants()
            .rfind(|n| n.has_tag_name("rect") && n.attribute("fill") == Some("none"))
            .unwrap_or_else(|| panic!("no outline rect"))
    }

    #[test]
    fn table_box_snapshot() {
        insta::assert_snapshot!(render_svg(&temp_by_device()));
    }

    #[test]
    fn flow_snapshot() {
        insta::assert_snapshot!(render_flow_svg(&iot_flows()));
    }

    #[test]
    fn every_column_gets_a_row_with_its_type_and_chebotko_marker() {
        let diagram = temp_by_device();
        let svg = render_svg(&diagram);
        let doc = parse(&svg);
        let expected: Vec<(String, String, String)> = diagram
            .columns
            .iter()
            .map(|c| {
                (
                    c.name.clone(),
                    c.cql_type.clone(),
                    c.role.marker().to_string(),
                )
            })
            .collect();
        assert_eq!(rows(&doc), expected);
        let markers: Vec<String> = expected.iter().map(|r| r.2.clone()).collect();
        assert_eq!(markers, ["K", "K", "C↓", "C↑", "S", ""]);
        assert_eq!(texts(&doc, "table-name"), ["temp_by_device"]);
        assert_eq!(texts(&doc, "queries"), ["Q1_last_24h, Q2_reading_at"]);
    }

    #[test]
    fn queries_are_listed_above_the_box() {
        let svg = render_svg(&temp_by_device());
        let doc = parse(&svg);
        let box_top = number(outline(&doc), "y");
        for label in elements(&doc, "queries") {
            assert!(number(label, "y") < box_top, "query label inside the box");
        }
    }

    #[test]
    fn names_needing_escaping_come_back_unchanged_after_parsing() {
        let diagram = TableDiagram {
            name: r#"a<b & "c" 'd'>"#.to_string(),
            columns: vec![
                column("x&y", "map<text, frozen<list<int>>>", Role::PartitionKey),
                column("</text>", "text", Role::Regular),
            ],
            queries: vec!["q<1>&amp;".to_string()],
        };
        let svg = render_svg(&diagram);
        let doc = parse(&svg);
        assert_eq!(texts(&doc, "table-name"), [diagram.name.as_str()]);
        assert_eq!(
            rows(&doc),
            [
                (
                    "x&y".to_string(),
                    "map<text, frozen<list<int>>>".to_string(),
                    "K".to_string()
                ),
                ("</text>".to_string(), "text".to_string(), String::new()),
            ]
        );
        assert_eq!(texts(&doc, "queries"), ["q<1>&amp;"]);

        let flows = vec![("q<1>".to_string(), "t&u".to_string())];
        let flow = render_flow_svg(&flows);
        let doc = parse(&flow);
        assert_eq!(texts(&doc, "name"), ["q<1>", "t&u"]);
    }

    #[test]
    fn characters_xml_cannot_carry_are_replaced_not_emitted() {
        let diagram = TableDiagram {
            name: "bell\u{7}table\u{FFFF}".to_string(),
            columns: vec![column("nul\u{0}", "text", Role::Regular)],
            queries: Vec::new(),
        };
        let svg = render_svg(&diagram);
        let doc = parse(&svg);
        assert_eq!(texts(&doc, "table-name"), ["bell\u{FFFD}table\u{FFFD}"]);
        assert_eq!(texts(&doc, "name"), ["nul\u{FFFD}"]);
    }

    fn assorted_diagrams() -> Vec<TableDiagram> {
        let long_queries: Vec<String> = (1..=12).map(|i| format!("query_number_{i}")).collect();
        vec![
            temp_by_device(),
            TableDiagram {
                name: "a_table_whose_name_is_much_longer_than_its_columns".to_string(),
                columns: vec![column("k", "int", Role::PartitionKey)],
                queries: long_queries.clone(),
            },
            TableDiagram {
                name: "t".to_string(),
                columns: vec![
                    column("用户标识", "uuid", Role::PartitionKey),
                    column(
                        "a_very_long_column_name_indeed",
                        "frozen<map<text, text>>",
                        Role::Regular,
                    ),
                ],
                queries: long_queries,
            },
            TableDiagram {
                name: "q".to_string(),
                columns: Vec::new(),
                queries: vec!["a_query_name_far_wider_than_the_table_box".to_string()],
            },
        ]
    }

    #[test]
    fn all_text_fits_inside_the_box_and_the_picture() {
        for diagram in assorted_diagrams() {
            let svg = render_svg(&diagram);
            let doc = parse(&svg);
            let root = doc.root_element();
            let (width, height) = (number(root, "width"), number(root, "height"));
            let frame = outline(&doc);
            let (box_x, box_w) = (number(frame, "x"), number(frame, "width"));
            assert!(
                box_x + box_w <= width && number(frame, "y") + number(frame, "height") <= height
            );
            for text in doc.descendants().filter(|n| n.has_tag_name("text")) {
                let content_width = cells(text.text().unwrap_or_default()) * CHAR_WIDTH;
                let x = number(text, "x");
                let (left, right) = if text.attribute("text-anchor") == Some("middle") {
                    (x - content_width / 2, x + content_width.div_ceil(2))
                } else {
                    (x, x + content_width)
                };
                assert!(
                    left >= box_x && right <= box_x + box_w,
                    "{:?} overruns the box [{box_x}, {}] in\n{svg}",
                    text.text(),
                    box_x + box_w
                );
                assert!(number(text, "y") <= height);
            }
        }
    }

    #[test]
    fn column_names_types_and_markers_are_aligned_in_three_columns() {
        for diagram in assorted_diagrams() {
            let svg = render_svg(&diagram);
            let doc = parse(&svg);
            for class in ["name", "type", "marker"] {
                let xs: Vec<u64> = elements(&doc, class)
                    .iter()
                    .map(|n| number(*n, "x"))
                    .collect();
                assert!(
                    xs.windows(2).all(|w| w.first() == w.last()),
                    "{class} not aligned: {xs:?}"
                );
            }
            let ys: Vec<u64> = elements(&doc, "name")
                .iter()
                .map(|n| number(*n, "y"))
                .collect();
            assert!(
                ys.windows(2).all(|w| w.first() < w.last()),
                "rows out of order: {ys:?}"
            );
        }
    }

    #[test]
    fn many_queries_wrap_onto_several_lines() {
        let diagrams = assorted_diagrams();
        let doc_svg = diagrams.get(1).map(render_svg).unwrap_or_default();
        let doc = parse(&doc_svg);
        let lines = texts(&doc, "queries");
        assert!(lines.len() > 1, "{lines:?}");
        let rejoined = lines.join(" ");
        let expected: Vec<String> = (1..=12).map(|i| format!("query_number_{i}")).collect();
        assert_eq!(rejoined, expected.join(", "));
    }

    #[test]
    fn flow_draws_each_query_and_table_once_and_one_arrow_per_pair() {
        let flows: Vec<(String, String)> = [
            ("Q1", "orders_by_customer"),
            ("Q2", "order_by_id"),
            ("Q1", "orders_by_customer"),
            ("Q3", "orders_by_customer"),
        ]
        .iter()
        .map(|(q, t)| (q.to_string(), t.to_string()))
        .collect();
        let svg = render_flow_svg(&flows);
        let doc = parse(&svg);
        let boxes = |class: &str| -> Vec<(String, Node<'_, '_>)> {
            elements(&doc, class)
                .into_iter()
                .map(|g| {
                    let name = g
                        .children()
                        .find(|n| has_class(*n, "name"))
                        .and_then(|n| n.text())
                        .unwrap_or_default()
                        .to_string();
                    let rect = g
                        .children()
                        .find(|n| n.has_tag_name("rect"))
                        .unwrap_or_else(|| panic!("box without rect"));
                    (name, rect)
                })
                .collect()
        };
        let queries = boxes("query");
        let tables = boxes("table");
        let query_names: Vec<&str> = queries.iter().map(|(n, _)| n.as_str()).collect();
        let table_names: Vec<&str> = tables.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(query_names, ["Q1", "Q2", "Q3"]);
        assert_eq!(table_names, ["orders_by_customer", "order_by_id"]);

        let anchor = |rect: Node<'_, '_>, right_edge: bool| {
            let x = number(rect, "x") + if right_edge { number(rect, "width") } else { 0 };
            (x, number(rect, "y") + number(rect, "height") / 2)
        };
        let mut drawn: Vec<((u64, u64), (u64, u64))> = elements(&doc, "flow")
            .iter()
            .map(|l| {
                (
                    (number(*l, "x1"), number(*l, "y1")),
                    (number(*l, "x2"), number(*l, "y2")),
                )
            })
            .collect();
        let mut expected: Vec<((u64, u64), (u64, u64))> = [(0, 0), (1, 1), (2, 0)]
            .iter()
            .filter_map(|&(q, t)| {
                let (_, from) = queries.get(q)?;
                let (_, to) = tables.get(t)?;
                Some((anchor(*from, true), anchor(*to, false)))
            })
            .collect();
        drawn.sort_unstable();
        expected.sort_unstable();
        assert_eq!(expected.len(), 3);
        assert_eq!(drawn, expected);
    }

    #[test]
    fn empty_inputs_still_give_well_formed_svg() {
        let bare = TableDiagram {
            name: String::new(),
            columns: Vec::new(),
            queries: Vec::new(),
        };
        let svg = render_svg(&bare);
        let doc = parse(&svg);
        assert!(rows(&doc).is_empty());
        assert!(texts(&doc, "queries").is_empty());
        let flow = render_flow_svg(&[]);
        let doc = parse(&flow);
        assert!(elements(&doc, "flow").is_empty());
        assert!(number(doc.root_element(), "width") > 0);
    }

    #[test]
    fn a_longer_column_name_widens_the_box() {
        let narrow = temp_by_device();
        let mut wide = temp_by_device();
        if let Some(first) = wide.columns.first_mut() {
            first.name = "device_identifier_with_a_long_name".to_string();
        }
        let width = |d: &TableDiagram| {
            let svg = render_svg(d);
            number(parse(&svg).root_element(), "width")
        };
        let extra = (cells("device_identifier_with_a_long_name") - cells("device_id")) * CHAR_WIDTH;
        assert_eq!(width(&wide), width(&narrow) + extra);
    }
}
