//! Clear values on the left of [`FheUint`]'s operators: `clear op x` and
//! `&clear op x` for `+ - * & | ^` (the commutative ones swap their operands,
//! `clear - x` is [`FheUint::try_sub_from`]).

use super::base::{FheUint, FheUintId, UnsignedClear};
use super::static_::unsigned_widths;
use crate::error::Result;
use crate::high_level::integers::operators::clear_left_operators;
use crate::integer;

impl<Id: FheUintId> FheUint<Id> {
    /// `clear - self`, wrapping; `Err` on failure. The operator form is
    /// `clear - &x`.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::FheUint8;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, server_key) = gpufhe::generate_keys(config);
    /// gpufhe::set_server_key(server_key);
    /// let x = FheUint8::encrypt(3u8, &client_key);
    /// let y: u8 = x.try_sub_from(10u8).unwrap().decrypt(&client_key);
    /// assert_eq!(y, 7);
    /// ```
    pub fn try_sub_from(&self, clear: Id::Clear) -> Result<Self> {
        let clear = clear.to_wide();
        self.unary(|c, x| integer::clear_sub(c, clear, x))
    }
}

/// The clear operators on the left for each width.
macro_rules! clear_left {
    ($($name:ident, $id:ident, $bits:expr, $clear:ty, $c:ident, $p:ident, $cp:ident;)*) => {$(
        clear_left_operators!(@type FheUint, $crate::high_level::$id, $clear);
    )*};
}
unsigned_widths!(clear_left);
