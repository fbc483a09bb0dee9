//! The ground floor: the words every other floor speaks.
//!
//! Node ids and every name a node goes by ([`ids`]), true time ([`time`]), how every number is
//! written ([`numbers`]), the enums with one name table each
//! ([`names`]: fence modes, violation kinds), the small JSON writer every export and trace line
//! uses ([`json`]), and the ordered map keyed by small ids that replaces hashing where
//! order matters ([`vecmap`]), and `clone_fields`, `Clone` for a state copied into the
//! room it already has. Nothing here knows about leases, scenarios or the page.
//!
//! May import: std and serde only. Everything else may import this.

pub mod ids;
pub mod json;
pub mod names;
pub mod numbers;
pub mod time;
pub mod vecmap;

/// `Clone` for a struct, field by field, with a `clone_from` that copies each field into
/// the room it already has: `#[derive(Clone)]` leaves `clone_from` a fresh copy and a drop,
/// and the explore search copies one judge's state into the same scratch state once per
/// run it tries. The fields are named once; `clone`'s struct literal does not compile
/// while one is missing.
macro_rules! clone_fields {
    ($ty:ident { $($field:ident),+ $(,)? }) => {
        impl Clone for $ty {
            fn clone(&self) -> Self {
                $ty { $($field: self.$field.clone()),+ }
            }

            fn clone_from(&mut self, source: &Self) {
                $(self.$field.clone_from(&source.$field);)+
            }
        }
    };
}
pub(crate) use clone_fields;
