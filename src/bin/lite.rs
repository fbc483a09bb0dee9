//! The first load of the browser app: the default page's player, with everything else
//! loaded on demand (`leaseline::ui::upgrade`). Built only for wasm with the `lite`
//! feature (index.html); natively it says where the real tool is.

#[cfg(target_arch = "wasm32")]
fn main() {
    leaseline::ui::mount();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("leaseline-lite is the browser's first load; run `leaseline --help` for the tool");
    std::process::exit(2);
}
