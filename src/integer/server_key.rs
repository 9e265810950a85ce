//! [`ServerKey`], [`CompressedServerKey`] and [`ClientKey`]: TFHE-rs's integer
//! keys, the block keys that the high-level [`crate::ServerKey`],
//! [`crate::CompressedServerKey`] and [`crate::ClientKey`] are assembled from
//! (their raw parts).

use crate::shortint;

/// The integer keys, each the newtype of its block key.
macro_rules! integer_server_key {
    ($($(#[$attr:meta])* $name:ident($block:ident, $what:literal, $make:literal);)*) => {$(
        #[doc = concat!(
            "The ", $what, " of integers: the ", $what, " of their blocks (TFHE-rs's \
             `tfhe::integer::", stringify!($name), "`). gpufhe's integer functions take \
             the block key itself ([`crate::integer::run`], [`crate::integer::encrypt_radix`]); \
             this type is the first of [`crate::", stringify!($name), "::into_raw_parts`]'s parts, as in \
             TFHE-rs."
        )]
        ///
        /// ```
        /// use gpufhe::shortint;
        /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
        /// let ck = shortint::ClientKey::new(TEST_PARAMS).unwrap();
        #[doc = $make]
        /// assert_eq!(key.into_raw_parts().parameters(), &TEST_PARAMS);
        /// ```
        $(#[$attr])*
        pub struct $name {
            key: shortint::$block,
        }

        impl $name {
            /// The key of integers made of the blocks of `key`.
            ///
            /// ```
            /// use gpufhe::shortint;
            /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
            /// let ck = shortint::ClientKey::new(TEST_PARAMS).unwrap();
            #[doc = $make]
            /// assert_eq!(key.shortint_key().parameters().message_modulus, 4);
            /// ```
            pub fn from_raw_parts(key: shortint::$block) -> Self {
                Self { key }
            }

            /// The key of the blocks.
            ///
            /// ```
            /// use gpufhe::shortint;
            /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
            /// let ck = shortint::ClientKey::new(TEST_PARAMS).unwrap();
            #[doc = $make]
            /// assert_eq!(key.into_raw_parts().parameters(), &TEST_PARAMS);
            /// ```
            pub fn into_raw_parts(self) -> shortint::$block {
                self.key
            }

            /// The key of the blocks, borrowed.
            ///
            /// ```
            /// use gpufhe::shortint;
            /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
            /// let ck = shortint::ClientKey::new(TEST_PARAMS).unwrap();
            #[doc = $make]
            /// assert_eq!(key.shortint_key().parameters(), &TEST_PARAMS);
            /// ```
            pub fn shortint_key(&self) -> &shortint::$block {
                &self.key
            }
        }

        impl From<$name> for shortint::$block {
            fn from(key: $name) -> Self {
                key.key
            }
        }
    )*};
}

integer_server_key! {
    #[derive(Debug, Clone)]
    ServerKey(
        ServerKey,
        "server key",
        "let key = gpufhe::integer::ServerKey::from_raw_parts(shortint::ServerKey::new(&ck).unwrap());"
    );
    #[derive(Debug, Clone)]
    CompressedServerKey(
        CompressedServerKey,
        "seeded server key",
        "let key = gpufhe::integer::CompressedServerKey::from_raw_parts(shortint::CompressedServerKey::new(&ck).unwrap());"
    );
    #[derive(Debug)]
    ClientKey(
        ClientKey,
        "client key",
        "let key = gpufhe::integer::ClientKey::from_raw_parts(ck);"
    );
}
