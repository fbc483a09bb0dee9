//! Exports of every built-in run: the SVG diagram (body and standalone document) and the
//! Mermaid sequence diagram. The standalone SVG must be well-formed XML — checked by a
//! small strict reader below, so no XML crate is needed — and both exports must say
//! exactly what the diagram and the verdict hold, the same way on every run.

use leaseline::analysis::check::{check, Verdict};
use leaseline::model::scenario::Scenario;
use leaseline::model::sim::simulate;
use leaseline::model::trace::{Event, Trace};
use leaseline::teach::library::LESSONS;
use leaseline::teach::presets::PRESETS;
use leaseline::view::export::{mermaid, svg};
use leaseline::view::layout::{diagram, Diagram, Label};

/// Checks that `s` is one well-formed XML element (after an optional declaration): names,
/// quoted attributes without duplicates, known entities only, no stray `<` or `&`, and
/// every tag closed in order. Returns the number of elements.
fn well_formed(s: &str) -> Result<usize, String> {
    let b = s.as_bytes();
    let mut i = 0;
    let mut stack: Vec<&str> = Vec::new();
    let mut elements = 0;
    let mut root_done = false;
    let err = |i: usize, what: &str| {
        Err(format!(
            "{what} at byte {i}: {:?}",
            &s[i..(i + 40).min(s.len())]
        ))
    };
    if s.starts_with("<?xml") {
        i = s.find("?>").ok_or("unclosed declaration")? + 2;
    }
    let name_end = |mut j: usize| {
        while j < b.len() && (b[j].is_ascii_alphanumeric() || b"-_:.".contains(&b[j])) {
            j += 1;
        }
        j
    };
    let entity = |j: usize| -> Option<usize> {
        let end = j + s[j..].find(';')?;
        let name = &s[j + 1..end];
        let ok = matches!(name, "amp" | "lt" | "gt" | "quot" | "apos")
            || name
                .strip_prefix("#x")
                .is_some_and(|h| !h.is_empty() && h.chars().all(|c| c.is_ascii_hexdigit()))
            || name
                .strip_prefix('#')
                .is_some_and(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()));
        ok.then_some(end + 1)
    };
    while i < b.len() {
        match b[i] {
            b'<' if b.get(i + 1) == Some(&b'/') => {
                let e = name_end(i + 2);
                let name = &s[i + 2..e];
                if stack.pop() != Some(name) {
                    return err(i, "mismatched end tag");
                }
                if b.get(e) != Some(&b'>') {
                    return err(e, "bad end tag");
                }
                i = e + 1;
                root_done = stack.is_empty();
            }
            b'<' => {
                if root_done {
                    return err(i, "second root element");
                }
                let e = name_end(i + 1);
                if e == i + 1 {
                    return err(i, "raw < or empty name");
                }
                let name = &s[i + 1..e];
                elements += 1;
                let mut j = e;
                let mut seen: Vec<&str> = Vec::new();
                loop {
                    let ws = j;
                    while j < b.len() && b[j].is_ascii_whitespace() {
                        j += 1;
                    }
                    match b.get(j) {
                        Some(b'>') => {
                            stack.push(name);
                            i = j + 1;
                            break;
                        }
                        Some(b'/') if b.get(j + 1) == Some(&b'>') => {
                            i = j + 2;
                            root_done = stack.is_empty();
                            break;
                        }
                        Some(_) if j > ws => {
                            let ae = name_end(j);
                            if ae == j {
                                return err(j, "bad attribute name");
                            }
                            let an = &s[j..ae];
                            if seen.contains(&an) {
                                return err(j, "duplicate attribute");
                            }
                            seen.push(an);
                            if b.get(ae) != Some(&b'=') {
                                return err(ae, "attribute without =");
                            }
                            let q = match b.get(ae + 1) {
                                Some(q @ (b'"' | b'\'')) => *q,
                                _ => return err(ae + 1, "unquoted attribute"),
                            };
                            j = ae + 2;
                            while b.get(j) != Some(&q) {
                                match b.get(j) {
                                    None | Some(b'<') => return err(j, "bad attribute value"),
                                    Some(b'&') => {
                                        j = entity(j).ok_or_else(|| format!("bad entity at {j}"))?
                                    }
                                    _ => j += 1,
                                }
                            }
                            j += 1;
                        }
                        _ => return err(j, "bad tag"),
                    }
                }
            }
            b'&' => i = entity(i).ok_or_else(|| format!("bad entity at {i}"))?,
            c => {
                if stack.is_empty() && !c.is_ascii_whitespace() {
                    return err(i, "text outside the root");
                }
                i += 1;
            }
        }
    }
    if !stack.is_empty() || elements == 0 {
        return Err(format!("unclosed: {stack:?}"));
    }
    Ok(elements)
}

#[test]
fn the_checker_refuses_what_is_not_xml() {
    assert_eq!(well_formed(r#"<a x="1"><b/>t &amp; &#39;</a>"#), Ok(2));
    for bad in [
        "<a><b></a></b>",
        "<a x=1/>",
        r#"<a x="1" x="2"/>"#,
        "<a>&nbsp;</a>",
        "<a>1 < 2</a>",
        "<a>&</a>",
        "<a/><b/>",
        "<a>",
        r#"<a x="<"/>"#,
    ] {
        assert!(well_formed(bad).is_err(), "{bad}");
    }
}

fn all_scenarios() -> Vec<(String, Scenario)> {
    PRESETS
        .iter()
        .map(|p| (p.name.to_string(), p.scenario()))
        .chain(LESSONS.iter().map(|l| (l.id.to_string(), l.scenario())))
        .collect()
}

fn run(sc: &Scenario) -> (Trace, Verdict, Diagram) {
    let t = simulate(sc).unwrap();
    let v = check(&t);
    let d = diagram(&t, &v);
    (t, v, d)
}

fn count(hay: &str, needle: &str) -> usize {
    hay.matches(needle).count()
}

#[test]
fn every_run_exports_a_faithful_svg_and_mermaid() {
    let scenarios = all_scenarios();
    assert_eq!((PRESETS.len(), LESSONS.len(), scenarios.len()), (4, 32, 36));
    for (name, sc) in &scenarios {
        let (t, v, d) = run(sc);
        let body = svg::diagram_body(&d);
        let doc = svg::standalone(&d, &format!("Leaseline: {name}"));
        well_formed(&body).unwrap_or_else(|e| panic!("{name} body: {e}"));
        well_formed(&doc).unwrap_or_else(|e| panic!("{name} standalone: {e}"));
        assert!(doc.starts_with(r#"<svg xmlns="http://www.w3.org/2000/svg""#));
        assert!(doc.contains(&format!("<title>Leaseline: {name}</title>")));
        assert!(doc.contains("viewBox=\"0 0 960.0 ") && doc.contains("<style>"));
        for banned in [
            "var(",
            "@import",
            "href",
            "http://www.w3.org/1999",
            "@font-face",
        ] {
            assert!(!doc.contains(banned), "{name}: {banned}");
        }
        assert!(doc.contains(&body), "{name}: the standalone holds the body");
        for (s, titles) in [(&body, 0), (&doc, 1)] {
            assert_eq!(count(s, r#"<g class="mark "#), d.marks.len(), "{name}");
            assert_eq!(count(s, r#"<g class="band""#), d.bands.len(), "{name}");
            assert_eq!(count(s, r#"<g class="bar "#), d.bars.len(), "{name}");
            assert_eq!(count(s, r#"<g class="arrow "#), d.arrows.len(), "{name}");
            assert_eq!(count(s, r#"<g class="gap "#), d.gaps.len(), "{name}");
            assert_eq!(
                count(s, "data-entry="),
                d.marks.len() + d.bands.len() + d.gaps.len(),
                "{name}"
            );
            assert_eq!(
                count(s, "<title>"),
                titles
                    // (A mark drawn by another at its spot has no glyph, no hover text.)
                    + d.marks.iter().filter(|m| m.stacked > 0).count()
                    + d.bands.len()
                    + d.bars.len()
                    + d.arrows.len()
                    + d.folds.len()
                    + d.gaps.len(),
                "{name}"
            );
        }
        assert_eq!(count(&doc, r#"class="lane-name""#), d.lanes.len());
        // Counted from the run, not from the diagram that drew it: a lane per node, a
        // band per overlap the verdict found, an arrow per message sent (a bundle of
        // renewals counts its messages, and draws a band and its first and last arrows).
        let sent = t
            .entries
            .iter()
            .filter(|e| matches!(e.event, Event::Sent { .. }))
            .count();
        assert_eq!(count(&doc, r#"class="lane-name""#), t.nodes.len(), "{name}");
        assert_eq!(
            count(&doc, r#"<g class="band""#),
            v.overlaps.len(),
            "{name}"
        );
        assert_eq!(count(&doc, r#"<g class="arrow "#), d.arrows.len(), "{name}");
        assert_eq!(
            d.arrows.iter().map(|a| a.count).sum::<usize>(),
            sent,
            "{name}"
        );
        let bundles = d.arrows.iter().filter(|a| a.count > 1).count();
        assert_eq!(count(&doc, "<polygon "), bundles, "{name}");
        assert_eq!(count(&doc, "<g><line "), d.ticks.len());
        for (dropped, arrow) in [(true, "url(#x-end)"), (false, "url(#arrow-end)")] {
            let n: usize = d
                .arrows
                .iter()
                .filter(|a| a.dropped == dropped)
                .map(|a| if a.count > 1 { 2 } else { 1 })
                .sum();
            assert_eq!(count(&body, arrow), n, "{name}");
        }

        let m = mermaid::sequence(&t, &v);
        assert!(m.starts_with("sequenceDiagram\n"), "{name}");
        for (node, _) in &t.nodes {
            assert!(
                m.contains(&format!("\nparticipant {node} as ")),
                "{name}: {node}"
            );
        }
        let notes = m
            .lines()
            .filter(|l| l.starts_with("Note over") && l.contains('⚠'));
        assert_eq!(notes.count(), v.violations.len(), "{name}:\n{m}");
        for l in m.lines().skip(1 + t.nodes.len()) {
            let ok = l.starts_with("Note over ") || l.contains("->>") || l.contains("-x");
            let text = l.split_once(": ").map_or("", |(_, t)| t);
            let bare = ["#59;", "#35;", "#lt;", "#gt;"]
                .iter()
                .fold(text.to_string(), |l, e| l.replace(e, ""));
            assert!(ok && !bare.contains([';', '#', '<', '>']), "{name}: {l}");
        }

        // Deterministic: a second run exports the same bytes.
        let (t2, v2, d2) = run(sc);
        assert_eq!(svg::standalone(&d2, &format!("Leaseline: {name}")), doc);
        assert_eq!(mermaid::sequence(&t2, &v2), m);
    }
}

#[test]
fn labels_and_titles_are_escaped() {
    let (_, _, mut d) = run(&PRESETS[1].scenario());
    let nasty = r#"a <&"b'> c"#;
    d.marks[0].label = Some(Label {
        x: 1.0,
        y: 2.0,
        w: 60.0,
        text: nasty.into(),
        leader: None,
        at: 1.0,
    });
    d.bars[0].title = nasty.into();
    let doc = svg::standalone(&d, nasty);
    well_formed(&doc).unwrap();
    let esc = "a &lt;&amp;&quot;b&#39;&gt; c";
    assert_eq!(
        count(&doc, esc),
        4,
        "mark label, bar title, <title>, aria-label"
    );
    assert!(!doc.contains(nasty));
}

#[test]
fn gc_pause_tells_the_stale_write_and_the_fence_rejects_it() {
    let sc = |name: &str| PRESETS.iter().find(|p| p.name == name).unwrap().scenario();
    let (t, v, d) = run(&sc("gc-pause"));
    let m = mermaid::sequence(&t, &v);
    let doc = svg::standalone(&d, "gc-pause");
    eprintln!(
        "gc-pause: standalone SVG {} bytes, body {} bytes, Mermaid {} bytes / {} lines",
        doc.len(),
        svg::diagram_body(&d).len(),
        m.len(),
        m.lines().count()
    );
    assert!(m.contains("\nc1->>storage: write token 33\n"), "{m}");
    assert!(m.contains("\nc2->>storage: write token 34\n"), "{m}");
    assert!(m.contains("\ncoord->>c2: granted token 34\n"), "{m}");
    assert!(m.contains("\nNote over c1: 10.0 s: pauses for "), "{m}");
    let stale = m
        .lines()
        .find(|l| l.starts_with("Note over") && l.contains('⚠'))
        .unwrap();
    assert!(stale.contains("token 33"), "{stale}");
    assert!(doc.contains("STALE 33 accepted"));

    let (t, v, _) = run(&sc("gc-pause-fenced"));
    let m = mermaid::sequence(&t, &v);
    assert!(m.contains("\nc1->>storage: write token 33\n"), "{m}");
    assert!(
        m.contains("\nstorage->>c1: write rejected: token 33 #lt; 34\n"),
        "{m}"
    );
    assert!(!m.contains('⚠'), "{m}");
}

/// The gc-pause run's SVG, counted by hand from its timeline: four lanes (c1, c2, coord,
/// storage), one band (both clients believe from 30.010 s to 50.010 s), 13 messages (two
/// acquires, a queued, two grants, two writes and their acks, two releases and their two
/// answers), none lost; four marks (the expiry at 30.005 s, the two accepted writes, the
/// pause) and five bars (c1's and c2's beliefs, the two leases at the coordinator, c1's
/// pause).
#[test]
fn the_gc_pause_svg_has_exactly_its_lanes_band_and_arrows() {
    let sc = leaseline::teach::presets::preset("gc-pause")
        .unwrap()
        .scenario();
    let (_, _, d) = run(&sc);
    let doc = svg::standalone(&d, "gc-pause");
    let counts = [
        count(&doc, r#"class="lane-name""#),
        count(&doc, r#"<g class="band""#),
        count(&doc, r#"<g class="arrow "#),
        count(&doc, "url(#x-end)"),
        count(&doc, r#"<g class="mark "#),
        count(&doc, r#"<g class="bar "#),
    ];
    assert_eq!(counts, [4, 1, 13, 0, 4, 5]);
}

#[test]
fn the_exported_picture_stands_alone_with_title_verdict_settings_legend_and_link() {
    use leaseline::teach::narrate::verdict_so_far;
    use leaseline::view::export::slide::{slide, About};
    use leaseline::view::legend;
    let link = "https://example.org/leaseline/#s=gc-pause&fence=none&t=0";
    for (name, sc) in &all_scenarios() {
        let (t, v, d) = run(sc);
        let about = About {
            scenario: sc,
            verdict: &v,
            steps: t.len(),
            link,
        };
        let s = slide(&d, &about);
        let doc = &s.svg;
        well_formed(doc).unwrap_or_else(|e| panic!("{name} slide: {e}"));
        let mut title = String::new();
        svg::escape_into(&mut title, &sc.name);
        assert!(doc.contains(&format!("<title>{title}</title>")), "{name}");
        assert!(
            doc.contains(&format!(">{title}</text>")),
            "{name}: the title is drawn"
        );
        let (safe, head, _) = verdict_so_far(&v, t.len(), true);
        let class = if safe { "safe" } else { "unsafe" };
        // As the SVG writes it: "client 2's work" has its apostrophe escaped.
        let mut drawn = String::new();
        svg::escape_into(&mut drawn, &head);
        assert!(
            doc.contains(&format!(r#"class="sheet-verdict {class}""#)) && doc.contains(&drawn),
            "{name}: {head}"
        );
        for setting in ["Lock service: ", "Fence: ", "TTL ", "Faults: "] {
            assert!(doc.contains(setting), "{name}: {setting}");
        }
        // The legend: every kind of shape the diagram draws, by name, with its sample.
        assert!(doc.contains(">Legend</text>"), "{name}");
        let used = legend::used(&d);
        assert!(!used.is_empty(), "{name}");
        for e in &used {
            assert!(
                doc.contains(&format!(">{}</text>", e.name)),
                "{name}: {}",
                e.name
            );
        }
        assert_eq!(count(doc, r#"class="legend-name""#), used.len(), "{name}");
        // The link: whole in the anchor, and written out as text.
        let mut esc = String::new();
        svg::escape_into(&mut esc, link);
        assert!(doc.contains(&format!(r#"<a href="{esc}">"#)), "{name}");
        assert!(doc.contains(&format!("Open this run: {esc}")), "{name}");
        // The diagram itself is there whole, below the heading; the picture is taller.
        assert!(doc.contains(&svg::diagram_body(&d)), "{name}");
        assert!(s.height > d.height + 150.0 && s.width == d.width, "{name}");
        assert!(doc.contains(&format!(
            "viewBox=\"0 0 960.0 {}\"",
            leaseline::vocab::numbers::tenths(s.height)
        )));
        assert_eq!(slide(&d, &about), s, "{name}: deterministic");
    }
}
