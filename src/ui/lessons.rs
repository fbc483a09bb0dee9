//! The two menus: the chapter menu (every lesson and its fixes, grouped the way the
//! sources argue) and the interview-prep list (seed 004's five questions).
//!
//! Every entry is a plain link to a fragment (`#s=…`, `#chapter=…`, `#quiz=…`), so each
//! chapter, lesson and question has a deep link and the browser's Back and Forward work.
//! The menus are one component with comparable props: during playback they do not render.

use super::on;
use super::{css, when};
use crate::session::carries::PageCourse;
use crate::session::link;
use crate::session::recorded::BUILT_IN;
use crate::session::{Action, Menu};
use crate::teach::course::Catalog;
use crate::teach::course::Progress;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct MenusProps {
    pub open: Option<Menu>,
    pub current: Rc<str>,
    pub progress: Progress,
    pub chapter: Option<usize>,
    pub on_action: Callback<Action>,
}

/// A link that also navigates on click, so following the link to the page already open
/// (no hashchange) still closes the menu and reopens the scenario.
fn nav_link(href: String, text: Html, current: bool, cb: &Callback<Action>) -> Html {
    html! {
        <a href={href.clone()} aria-current={current.then_some("page")} onclick={on(cb, Action::Navigate(href))}>{ text }</a>
    }
}

/// The Lessons menu's last section: each built-in recording of a real run, a plain link
/// like every lesson's.
fn recordings(cb: &Callback<Action>) -> Html {
    html! {
        <section class="chapter recorded">
            <h3>{ "Model vs reality: recorded on real services" }</h3>
            <p class="note">{ "The lab (make lab) ran these scenarios against a real Redis and a real etcd, with real client processes paused by SIGSTOP and cut off by a proxy. Each opens as the recorded run, judged by the same checker, with the model's run of the same scenario beside it." }</p>
            <ol>
                { for BUILT_IN.iter().map(|&(name, title)| html! {
                    <li>{ nav_link(link::recording(name), html! { { title } }, false, cb) }</li>
                }) }
            </ol>
        </section>
    }
}

#[component]
pub fn Menus(props: &MenusProps) -> Html {
    let chapters = use_memo((), |_| PageCourse::menu());
    let chapter = props.chapter;
    use_effect_with(chapter, |c| {
        if let Some(el) = c.and_then(|c| {
            web_sys::window()?
                .document()?
                .get_element_by_id(&format!("chapter-{}", c + 1))
        }) {
            el.scroll_into_view();
        }
    });
    let cb = &props.on_action;
    let p = &props.progress;
    let reset = html! {
        <button type="button" class="quiet" onclick={on(cb, Action::ResetProgress)}>{ "Reset progress" }</button>
    };
    match props.open {
        None | Some(Menu::Share) => html! {},
        Some(Menu::Lessons) => {
            let (walked, total) = p.walked_of(&chapters);
            html! {
                <nav id="lessons-menu" class="menu panel" aria-label="Lessons">
                    <header class="guide-head">
                        <h2>{ "Lessons" }</h2>
                        <span class="beat-count">{ format!("{walked} of {total} walked through") }</span>
                        { reset }
                    </header>
                    { for chapters.iter().enumerate().map(|(i, c)| html! {
                        <section id={format!("chapter-{}", i + 1)} class={css(&["chapter", when(chapter == Some(i), "target")])}>
                            <h3>{ nav_link(link::chapter(i), html! { { format!("{}. {}", i + 1, c.title) } }, false, cb) }</h3>
                            <ol>
                                { for c.lessons.iter().map(|l| {
                                    let done = p.has_walked(l.id);
                                    html! {
                                        <li>
                                            { nav_link(link::scenario(l.id, None), html! { { l.title.clone() } }, &*props.current == l.id, cb) }
                                            if done { <span class="done" aria-label="walked through" title="walked through">{ " ✓" }</span> }
                                            <span class="fixes">
                                                { for l.fixes.iter().map(|f| html! {
                                                    <span title={f.summary}>{ " · " }{ nav_link(link::scenario(&f.scenario, None), html! { { format!("{}: {}", f.standing.word(), f.title) } }, *props.current == *f.scenario, cb) }</span>
                                                }) }
                                            </span>
                                        </li>
                                    }
                                }) }
                            </ol>
                        </section>
                    }) }
                    { recordings(cb) }
                </nav>
            }
        }
        Some(Menu::Interview) => html! {
            <nav id="interview-menu" class="menu panel" aria-label="Interview prep">
                <header class="guide-head">
                    <h2>{ "Interview prep" }</h2>
                    { reset }
                </header>
                <p class="hint">{ "Five questions interviewers ask about distributed locks. Each plays a run that stops just before its decisive moment: predict, then play on to see what the model does." }</p>
                <ol>
                    { for PageCourse::QUESTIONS.iter().enumerate().map(|(i, q)| {
                        let (answered, right) = p.score(i);
                        html! {
                            <li>
                                { nav_link(link::quiz(i), html! { { q.asks } }, false, cb) }
                                <span class="score">{ format!(" {answered}/{} answered, {right} right", q.stops.len()) }</span>
                            </li>
                        }
                    }) }
                </ol>
            </nav>
        },
    }
}
