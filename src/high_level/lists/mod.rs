//! Lists of values of mixed types: [`compact`] lists (encrypted with a compact public
//! key, expanded by the server), [`compressed`] lists (packed by the server key's
//! compression key) and the kinds of the values they hold ([`kinds`]).

pub(crate) mod casting;
pub(crate) mod compact;
pub(crate) mod compressed;
pub(crate) mod cuda_expansion;
pub(crate) mod expander;
pub(crate) mod expansion;
pub(crate) mod kinds;
pub(crate) mod packed;
