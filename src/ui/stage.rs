//! The animated stage: the nodes and their links as a small picture, synced with the
//! cursor. Packets move along links, a paused node is drawn frozen, a cut link is drawn
//! cut. Every node and link is a button (click, tap, Enter or Space) that opens its actions;
//! nothing needs a right-click.

use super::on;
use crate::session::carries::PageDetail;
use crate::session::edit::{actions_for, Actions};
use crate::session::{Action, Run, Selection};
use crate::view::layout::{self, STAGE_W};

use super::{css, when};
use crate::analysis::projection::State;
use crate::vocab::ids::NodeId;
use std::rc::Rc;
use yew::prelude::*;

pub struct StageProps {
    pub run: Rc<Run>,
    pub state: Rc<State>,
    pub t: f64,
    pub selected: Option<Selection>,
    pub on_action: Callback<Action>,
    /// The screen is narrow: the stage is laid out narrower (`layout::narrowed`), so its
    /// words are not scaled below 10 px.
    pub narrow: bool,
}

fn n(v: f64) -> String {
    crate::vocab::numbers::tenths(v)
}

fn activate(
    cb: &Callback<Action>,
    sel: Selection,
) -> (Callback<MouseEvent>, Callback<KeyboardEvent>) {
    let c2 = cb.clone();
    (
        on(cb, Action::Select(Some(sel))),
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Enter" || e.key() == " " {
                e.prevent_default();
                e.stop_propagation();
                c2.emit(Action::Select(Some(sel)));
            }
        }),
    )
}

/// A plain function of its props, not a component: it changes on every frame of playback
/// anyway, so memoizing it would buy nothing, and each component costs wasm size.
pub fn stage(props: &StageProps) -> Html {
    let st = &props.state;
    let pressed = props.narrow.then(|| layout::narrowed(&props.run.stage));
    let (nodes, width) = match &pressed {
        Some(p) => (p, layout::STAGE_W_NARROW),
        None => (&props.run.stage, STAGE_W),
    };
    let links = layout::stage_links_with::<PageDetail>(nodes, st);
    let packets = layout::packets(nodes, &props.run.trace, st, props.t);
    let height = layout::stage_height(nodes);
    // A player has no action menu: a click on the stage hands over to the whole app,
    // which opens the menu there (`session::handoff`'s `selected`).
    #[cfg(not(feature = "player"))]
    let menu = action_menu(props);
    #[cfg(feature = "player")]
    let menu = html! {};
    html! {
        <div class="stage-panel">
            <svg class="stage" viewBox={format!("0 0 {} {}", n(width), n(height))} role="group" aria-label="Stage: nodes and links; select one for its actions">
                { for links.iter().map(|l| {
                    let sel = Selection::Link(l.a, l.b);
                    let (onclick, onkeydown) = activate(&props.on_action, sel);
                    let name = format!("link {}–{}{}", l.a.name(), l.b.name(), if l.cut { " (partitioned)" } else { "" });
                    html! {
                        <g class={css(&["link", when(l.cut, "cut"), when(props.selected == Some(sel), "selected")])}
                           role="button" tabindex="0" aria-label={name} {onclick} {onkeydown}>
                            <line class="hit" x1={n(l.x0)} y1={n(l.y0)} x2={n(l.x1)} y2={n(l.y1)} />
                            <line class="wire" x1={n(l.x0)} y1={n(l.y0)} x2={n(l.x1)} y2={n(l.y1)} />
                            if l.cut {
                                <text class="cut-mark" x={n(l.cut_at.0)} y={n(l.cut_at.1 + 5.0)}>{ "✂" }</text>
                            }
                        </g>
                    }
                }) }
                { for packets.iter().map(|p| html! {
                    <circle class={css(&["packet", p.class])} cx={n(p.x)} cy={n(p.y)} r="6" />
                }) }
                { for nodes.iter().map(|s| {
                    let sel = Selection::Node(s.node);
                    let (onclick, onkeydown) = activate(&props.on_action, sel);
                    let (paused, down, believes) = node_flags(st, s.node);
                    let local = st.local(s.node, crate::vocab::time::Time(props.t as i64));
                    let status = if down { "down" } else if paused { "paused" } else { "running" };
                    let clock = crate::vocab::numbers::fmt_ms(local);
                    // The name holds the words drawn inside the button (WCAG 2.5.3: a voice
                    // user says what they see): a client's badge ("C1"); the lock service's
                    // and storage's badges are their names already.
                    let badge = if s.node.is_client() { format!("{}, ", s.node.badge()) } else { String::new() };
                    let name = format!("{}: {badge}{status}{}, clock {clock}; actions", s.name, believes.map_or(String::new(), |t| format!(", believes it holds the lock ({})", crate::vocab::names::token_words(t))));
                    html! {
                        <>
                        <g class={css(&["node", when(paused, "paused"), when(down, "down"), when(believes.is_some(), "holder"),
                                           when(props.selected == Some(sel), "selected")])}
                           role="button" tabindex="0" aria-label={name} {onclick} {onkeydown}>
                            <circle cx={n(s.x)} cy={n(s.y)} r="22" />
                            <text class="node-name" x={n(s.x)} y={n(s.y + 4.0)}>{ s.node.badge() }</text>
                        </g>
                        // Drawn beside the button, not in it: the button's name already says
                        // them, and text inside a button must be part of its name.
                        <g class="node-notes" aria-hidden="true">
                            if let Some(t) = believes {
                                <text class="token" x={n(s.x)} y={n(s.y - 28.0)}>{ crate::vocab::names::token_words(t) }</text>
                            }
                            if paused {
                                <text class="frozen" x={n(s.x + 20.0)} y={n(s.y - 9.0)}>{ "❄" }</text>
                            }
                            <text class="node-clock" x={n(s.x)} y={n(s.y + 38.0)}>{ clock }</text>
                        </g>
                        </>
                    }
                }) }
                // A message's label over the nodes, its dot under them: one about to arrive
                // sits on its destination's circle, where the dot would hide the node's
                // name and the node would cut the label to "ant 34".
                { for packets.iter().map(|p| html! {
                    <text class="packet-label" x={n(p.x + 8.0)} y={n(p.y - 6.0)}>{ p.label.clone() }</text>
                }) }
            </svg>
            { menu }
        </div>
    }
}

fn node_flags(st: &State, n: NodeId) -> (bool, bool, Option<u64>) {
    let believes = match n {
        NodeId::Client(i) => st.clients.get(usize::from(i)).and_then(|c| c.believes),
        _ => None,
    };
    (st.is_paused(n), st.is_down(n), believes.map(|b| b.0))
}

/// The actions of the selected node or link (decided by `edit::actions_for`), as plain
/// buttons. Each becomes a fault at the cursor's time. The menu is a popover beside its
/// shape, placed and given focus by [`use_action_menu`]; the hint stays while it is open, so
/// opening it moves nothing on the page.
fn action_menu(props: &StageProps) -> Html {
    let hint = html! { <p class="stage-hint">{ "Select a node or a link above to pause it, jump its clock, restart it or cut it." }</p> };
    let Some(sel) = props.selected else {
        return hint;
    };
    let at_ms = props.t.floor() as i64;
    let Actions { title, items } = actions_for(sel, &props.state, at_ms);
    let close = on(&props.on_action, Action::Select(None));
    html! {
        <>
        { hint }
        <div class="action-menu" role="group" aria-label={format!("Actions for {title}")}>
            <span class="action-title">{ format!("{} at {}:", title, crate::vocab::numbers::secs(at_ms)) }</span>
            { for items.into_iter().map(|(label, edit)| {
                html! { <button type="button" onclick={on(&props.on_action, Action::Edit(edit))}>{ label }</button> }
            }) }
            <button type="button" class="quiet" aria-label="Close actions" onclick={close}>{ "✕" }</button>
        </div>
        </>
    }
}

/// Keeps the stage's action menu with its shape and the keyboard's focus with the menu:
/// once a shape is selected, puts the menu beside it inside the viewport (where is the
/// core's decision, [`layout::popover`]) and focuses its first action; once it closes
/// (Escape, ✕, an action applied) and focus would fall to the page, gives focus back to the
/// shape that opened it. Reads layout when the selection changes, never per frame.
#[cfg(not(feature = "player"))]
#[hook]
pub fn use_action_menu(selected: Option<Selection>) {
    use_effect_with(selected, |sel| {
        let doc = web_sys::window().and_then(|w| w.document());
        let menu = sel
            .and(doc.as_ref())
            .and_then(|d| d.query_selector(".stage-panel .action-menu").ok()?);
        // The shape the menu is for, which a click, Enter or Space on it selected — and
        // which had the focus, unless the menu came with a page the whole app took over
        // from a player, where nothing has it yet.
        let opener = menu
            .as_ref()
            .and_then(|m| m.parent_element()?.query_selector(".selected").ok()?);
        if let Some(m) = &menu {
            place(m);
            focus(m.query_selector("button").ok().flatten().as_ref());
        }
        move || {
            let lost = doc
                .as_ref()
                .and_then(|d| Some(d.active_element()? == d.body()?.into()))
                .unwrap_or(true);
            if lost {
                focus(opener.as_ref());
            }
        }
    });
}

/// The players draw no action menu (a click on the stage hands over to the whole app):
/// nothing to place. (A hook in every build, since Yew's component macro cannot take a
/// hook call under `cfg`.)
#[cfg(feature = "player")]
#[hook]
pub fn use_action_menu(_selected: Option<Selection>) {}

/// Moves keyboard focus to `el` (a button, or a stage shape: SVG elements focus too).
#[cfg(not(feature = "player"))]
fn focus(el: Option<&web_sys::Element>) {
    if let Some(el) = el {
        let _ = wasm_bindgen::JsCast::unchecked_ref::<web_sys::HtmlElement>(el).focus();
    }
}

/// Puts the open menu beside the selected shape of its stage (the panel it is positioned
/// in), inside the viewport.
#[cfg(not(feature = "player"))]
fn place(menu: &web_sys::Element) -> Option<()> {
    let panel = menu.parent_element()?;
    let shape = panel.query_selector(".selected").ok()??;
    // A node's circle; a link's midpoint (its box can span the whole stage).
    let anchor = match shape.query_selector("circle").ok()? {
        Some(c) => rect(&c),
        None => {
            let (l, t, r, b) = rect(&shape);
            let (x, y) = ((l + r) / 2.0, (t + b) / 2.0);
            (x - 6.0, y - 6.0, x + 6.0, y + 6.0)
        }
    };
    let root = web_sys::window()?.document()?.document_element()?;
    let view = (
        0.0,
        0.0,
        f64::from(root.client_width()),
        f64::from(root.client_height()),
    );
    let (pl, pt, pr, _) = rect(&panel);
    let (ml, mt, mr, mb) = rect(menu);
    // Shapes on the stage's right half open their menu towards its middle.
    let prefer_left = anchor.0 + anchor.2 > pl + pr;
    let (x, y) = layout::popover(anchor, mr - ml, mb - mt, view, prefer_left);
    // The menu is positioned from the panel's padding box, 1 px (its border) inside.
    let style = format!("left:{}px;top:{}px", n(x - pl - 1.0), n(y - pt - 1.0));
    menu.set_attribute("style", &style).ok()
}

#[cfg(not(feature = "player"))]
fn rect(e: &web_sys::Element) -> layout::Rect {
    let r = e.get_bounding_client_rect();
    (r.left(), r.top(), r.right(), r.bottom())
}
