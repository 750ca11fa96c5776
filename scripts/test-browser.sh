#!/usr/bin/env bash
# The real-browser check of the HTML reports: each example's page (and a
# 500-table design) opened in headless Chromium at 1280 px and 390 px; no
# console errors, every diagram has a size, nothing overflows the page width,
# the 500-table page opens in under 2 s. Screenshots: target/html-shots/.
# Needs Debian's `chromium` and `chromium-driver` (CQLMODEL_CHROMIUM and
# CQLMODEL_CHROMEDRIVER override the binaries).
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in chromium chromedriver; do
    var="CQLMODEL_$(echo "$tool" | tr '[:lower:]' '[:upper:]')"
    if [ -z "${!var:-}" ] && ! command -v "$tool" >/dev/null 2>&1; then
        echo "test-browser: missing '$tool': apt-get install -y chromium chromium-driver" >&2
        exit 2
    fi
done
# `--workspace`, not `-p cqlmodel`: the same features as the README's test
# command, so its build is reused (with `-p` cargo rebuilds 8 crates).
INSTA_UPDATE=no cargo test --workspace --locked --test html_browser -- --ignored --nocapture
echo "test-browser: screenshots in target/html-shots/"
