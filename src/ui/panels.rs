//! The inspector (what every node believes at the cursor) and the verdict panel (what went
//! wrong so far, each with a jump). Both read the projected state and the checker's
//! verdict; neither decides anything.

use crate::session::{Action, Run};

use crate::analysis::projection::{JobStatus, State};
use crate::vocab::ids::NodeId;
use crate::vocab::time::{fmt_ms, Time};
use std::rc::Rc;
use yew::prelude::*;

pub struct PanelProps {
    pub run: Rc<Run>,
    pub state: Rc<State>,
    pub t: f64,
    pub on_action: Callback<Action>,
}

/// A plain function of its props, not a component: it changes on every frame of playback
/// anyway, so memoizing it would buy nothing, and each component costs wasm size.
pub fn inspector(props: &PanelProps) -> Html {
    let st = &props.state;
    let t = Time(props.t as i64);
    let clients = st.clients.iter().enumerate().map(|(i, c)| {
        let node = NodeId::Client(i as u8);
        let local = st.local(node, t);
        let belief = match c.believes {
            Some((tok, deadline)) => {
                let lapsed = local >= deadline;
                format!(
                    "holds token {tok} until {}{}",
                    fmt_ms(deadline),
                    if lapsed { " — already passed" } else { "" }
                )
            }
            None => "does not hold the lock".into(),
        };
        let status = match (c.paused, c.status) {
            (true, _) => "paused",
            (_, JobStatus::NotStarted) => "not started",
            (_, JobStatus::Running) => "running",
            (_, JobStatus::Finished) => "finished",
            (_, JobStatus::Aborted) => "aborted",
        };
        html! {
            <tr>
                <th scope="row">{ node.name() }</th>
                <td class="num">{ fmt_ms(local) }</td>
                <td>{ status }</td>
                <td class={classes!(c.believes.is_some().then_some("believes"))}>{ belief }</td>
            </tr>
        }
    });
    // One row per coordinator node (Redlock's masters are five independent ones).
    let coords = props.run.scenario.coord_nodes();
    let coord_rows = coords.iter().map(|&node| {
        let lease = if coords.len() == 1 {
            st.lease.as_ref()
        } else {
            st.leases.get(&node)
        };
        let down = st.coords_down.contains(&node) || (coords.len() == 1 && st.coord_down);
        let paused = st.coords_paused.contains(&node) || (coords.len() == 1 && st.coord_paused);
        let holds = match lease {
            Some(l) => format!(
                "lease: {} holds token {} until {}",
                l.client.name(),
                l.token,
                fmt_ms(l.expires_local)
            ),
            None if down => "down".into(),
            None => "lock free".into(),
        };
        html! {
            <tr>
                <th scope="row">{ node.name().trim_start_matches("the ").to_string() }</th>
                <td class="num">{ fmt_ms(st.local(node, t)) }</td>
                <td>{ if down { "down" } else if paused { "paused" } else { "running" } }</td>
                <td>{ holds }</td>
            </tr>
        }
    });
    let flavor = props.run.scenario.coordinator.flavor;
    let storage_local = st.local(NodeId::Storage, t);
    let cells: Vec<String> = st
        .cells
        .iter()
        .map(|(k, c)| {
            let mark = st
                .marks
                .get(k)
                .map_or("no mark".into(), |m| format!("mark {m}"));
            let tok = c.token.map_or("no token".into(), |t| format!("token {t}"));
            format!(
                "{k} = \"{}\" ({tok} from {}; {mark})",
                c.value,
                c.writer.name()
            )
        })
        .collect();
    let fence = format!("fence: {}", props.run.scenario.storage.fence.name());
    html! {
        <section class="panel inspector" aria-label="Inspector">
            <h2>{ format!("At t = {}", fmt_ms(t.0)) }</h2>
            <p class="service">
                <strong>{ format!("Lock service: {}. ", flavor.name()) }</strong>
                { format!("Fence it offers: {}.", flavor.fence_offered()) }
            </p>
            <details class="explainer">
                <summary>{ format!("How {} works, and what it guarantees", flavor.name()) }</summary>
                <p>{ flavor.explainer() }</p>
            </details>
            <table>
                <thead><tr><th scope="col">{ "node" }</th><th scope="col">{ "clock" }</th><th scope="col">{ "state" }</th><th scope="col">{ "believes" }</th></tr></thead>
                <tbody>
                    { for clients }
                    { for coord_rows }
                    <tr>
                        <th scope="row">{ "storage" }</th>
                        <td class="num">{ fmt_ms(storage_local) }</td>
                        <td>{ fence }</td>
                        <td>{ if cells.is_empty() { "empty".to_string() } else { cells.join("; ") } }</td>
                    </tr>
                </tbody>
            </table>
        </section>
    }
}

/// A plain function of its props, not a component: it changes on every frame of playback
/// anyway, so memoizing it would buy nothing, and each component costs wasm size.
pub fn verdict_panel(props: &PanelProps) -> Html {
    let v = &props.run.verdict;
    let step = props.state.step;
    let reached: Vec<_> = v
        .violations
        .iter()
        .filter(|x| (x.entry as usize) < step)
        .collect();
    let overlaps: Vec<_> = v
        .overlaps
        .iter()
        .filter(|o| (o.entry as usize) < step)
        .collect();
    let rejections: Vec<_> = v
        .rejections
        .iter()
        .filter(|r| (r.entry as usize) < step)
        .collect();
    let jump = |entry: u32| {
        let cb = props.on_action.clone();
        Callback::from(move |_| cb.emit(Action::SeekEntry(entry as usize)))
    };
    let at_end = step >= props.run.trace.len();
    let (class, head) = if reached.is_empty() && at_end {
        ("safe", "Safe: no violation in the whole run".to_string())
    } else if reached.is_empty() {
        ("safe", "Safe so far".to_string())
    } else {
        (
            "unsafe",
            format!(
                "Unsafe: {} violation{}",
                reached.len(),
                if reached.len() == 1 { "" } else { "s" }
            ),
        )
    };
    html! {
        <section class={classes!("panel", "verdict", class)} aria-label="Verdict">
            <h2>{ head }</h2>
            <ul>
                { for reached.iter().map(|x| html! {
                    <li class="violation">
                        <button type="button" class="link" onclick={jump(x.entry)}>{ format!("t = {}", crate::teach::narrate::secs(x.at.0)) }</button>
                        { format!(" {}", x.cause) }
                    </li>
                }) }
                { for rejections.iter().map(|r| html! {
                    <li class="rejection">
                        <button type="button" class="link" onclick={jump(r.entry)}>{ format!("t = {}", crate::teach::narrate::secs(r.at.0)) }</button>
                        { format!(" the fence rejected {}'s write: {}", r.client.name(), r.reason) }
                    </li>
                }) }
                { for overlaps.iter().map(|o| {
                    let who: Vec<String> = o.clients.iter().map(|(c, t)| format!("{} (token {t})", c.name())).collect();
                    html! {
                        <li class="overlap">
                            <button type="button" class="link" onclick={jump(o.entry)}>{ format!("t = {}", crate::teach::narrate::secs(o.from.0)) }</button>
                            { format!(" {} both believe they hold the lock", who.join(" and ")) }
                        </li>
                    }
                }) }
            </ul>
        </section>
    }
}
