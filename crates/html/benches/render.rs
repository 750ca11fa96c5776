//! `cargo bench -p cqlmodel-html`: the HTML page of a 500-table design
//! (target: under 1 s).

use cqlmodel_html::{Page, Sources, render, sample::synthetic_design};
use criterion::{Criterion, criterion_group, criterion_main};

fn bench(c: &mut Criterion) {
    let model = synthetic_design(500);
    let sources = Sources::new();
    let mut group = c.benchmark_group("html");
    group.sample_size(10);
    group.bench_function("design_500_tables", |b| {
        b.iter(|| render(Page::Design, &model, &sources).len())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
