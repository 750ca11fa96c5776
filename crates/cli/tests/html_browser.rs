//! The real-browser check of the HTML pages (run by scripts/test-browser.sh;
//! ignored by `cargo test` because it needs Debian's `chromium` and
//! `chromium-driver`). Each example's page, and a 500-table design, is opened
//! in headless Chromium at 1280 px and at 390 px: no console errors, every
//! diagram and chart has a size, nothing is wider than the page; screenshots go
//! to target/html-shots/ for a person to look at. The 500-table page must open
//! in under 2 s.

mod html_support;

use std::path::{Path, PathBuf};
use std::time::Instant;

use cqlmodel_html::{Page, Sources, render, sample::synthetic_design};
use html_support::webdriver::{Driver, Session};
use html_support::{EXAMPLES, root, write_page};
use serde_json::Value;

const WIDTHS: [u32; 2] = [1280, 390];
const SCREEN_HEIGHT: u32 = 900;
/// The tallest screenshot taken (a full page of 500 tables is not one).
const SHOT_HEIGHT_MAX: u32 = 6000;

/// Every diagram's size, and the elements wider than the viewport, with all
/// blocks open (a closed block hides what it holds).
const CHECKS: &str = r#"
document.querySelectorAll("details").forEach(function(d){d.open=true;d.style.contentVisibility="visible";});
var width=document.documentElement.clientWidth;
var svgs=Array.from(document.querySelectorAll("svg")).filter(function(s){return !s.parentElement.closest("svg");});
var empty=svgs.filter(function(s){var r=s.getBoundingClientRect();return !(r.width>0&&r.height>0);}).map(function(s){return s.outerHTML.slice(0,80);});
var wide=[];
document.querySelectorAll("body *:not(svg *)").forEach(function(e){var r=e.getBoundingClientRect();if(r.right>width+1&&!e.closest(".scroll, pre")&&wide.length<10){wide.push(e.tagName+"."+e.className+" right="+Math.round(r.right));}});
return {width:width,scrollWidth:document.documentElement.scrollWidth,height:document.documentElement.scrollHeight,diagrams:svgs.length,empty:empty,wide:wide};
"#;

/// A tool's full path: `$CQLMODEL_<NAME>`, else the first `name` on PATH
/// (chromedriver wants the browser's full path).
fn tool(name: &str) -> String {
    if let Ok(path) = std::env::var(format!("CQLMODEL_{}", name.to_uppercase())) {
        return path;
    }
    std::env::var_os("PATH")
        .and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|dir| dir.join(name))
                .find(|p| p.is_file())
        })
        .map_or_else(|| name.to_string(), |p| p.to_string_lossy().into_owned())
}

#[test]
#[ignore = "needs chromium and chromium-driver: run scripts/test-browser.sh"]
fn pages_render_in_a_real_browser() {
    let shots = root().join("target/html-shots");
    std::fs::create_dir_all(&shots).expect("target/html-shots");
    let scratch = tempfile::tempdir().expect("tempdir");
    let mut pages: Vec<(String, PathBuf)> = EXAMPLES
        .iter()
        .map(|e| {
            let (path, code) = write_page(e, scratch.path());
            assert!(matches!(code, Some(0 | 1)), "{}: exit {code:?}", e.name);
            (e.name.to_string(), path)
        })
        .collect();
    let large = scratch.path().join("design-500.html");
    let started = Instant::now();
    let html = render(Page::Design, &synthetic_design(500), &Sources::new());
    println!(
        "render 500-table design page (debug build): {:?}, {} bytes",
        started.elapsed(),
        html.len()
    );
    std::fs::write(&large, html).expect("write");
    pages.push(("design-500".into(), large));

    let driver = Driver::start(&tool("chromedriver")).expect("chromedriver");
    let mut failures = Vec::new();
    for width in WIDTHS {
        let profile = tempfile::tempdir().expect("profile");
        let session = Session::new(
            &driver,
            &tool("chromium"),
            &profile.path().to_string_lossy(),
            width,
            SCREEN_HEIGHT,
        )
        .expect("browser session");
        for (name, path) in &pages {
            if let Err(e) = check_page(&session, name, path, width, &shots) {
                failures.push(format!("{name} at {width} px: {e}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn check_page(
    session: &Session,
    name: &str,
    path: &Path,
    width: u32,
    shots: &Path,
) -> Result<(), String> {
    session.set_window(width, SCREEN_HEIGHT)?;
    let _ = session.console()?;
    let url = format!(
        "file://{}",
        path.canonicalize().map_err(|e| e.to_string())?.display()
    );
    let started = Instant::now();
    session.goto(&url)?;
    let opened = started.elapsed();
    let load_ms = session
        .run("var n=performance.getEntriesByType('navigation')[0];return n?n.loadEventEnd:null;")?;
    println!(
        "{name} at {width} px: opened in {} ms (navigation to load event {load_ms} ms)",
        opened.as_millis()
    );
    if name == "design-500" && opened.as_secs_f64() >= 2.0 {
        return Err(format!(
            "the 500-table page took {opened:?} to open (target < 2 s)"
        ));
    }
    let errors: Vec<Value> = session
        .console()?
        .into_iter()
        .filter(|entry| entry["level"] == "SEVERE")
        .collect();
    let report = session.run(CHECKS)?;
    let shot_height = report["height"]
        .as_u64()
        .unwrap_or(900)
        .min(u64::from(SHOT_HEIGHT_MAX)) as u32;
    session.set_window(width, shot_height.max(SCREEN_HEIGHT))?;
    let png = session.screenshot()?;
    std::fs::write(shots.join(format!("{name}-{width}.png")), png).map_err(|e| e.to_string())?;
    let mut problems = Vec::new();
    if !errors.is_empty() {
        problems.push(format!("console errors: {errors:?}"));
    }
    if report["diagrams"].as_u64().unwrap_or(0) == 0
        && name != "diagnose"
        && name != "review"
        && name != "migrate"
    {
        problems.push("no diagram on the page".into());
    }
    if report["empty"].as_array().is_some_and(|a| !a.is_empty()) {
        problems.push(format!("diagrams without a size: {}", report["empty"]));
    }
    if report["scrollWidth"].as_u64() > report["width"].as_u64()
        || report["wide"].as_array().is_some_and(|a| !a.is_empty())
    {
        problems.push(format!(
            "wider than the page ({} > {}): {}",
            report["scrollWidth"], report["width"], report["wide"]
        ));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("; "))
    }
}
