//! A server key (plain or compressed) from its parts: the shapes of its keys are
//! checked against its parameters when it is read or assembled.

use super::{CompressedServerKey, ServerKey};
use crate::core_crypto::{
    BootstrapKeyShape, FourierLweBootstrapKey, KeyswitchKeyShape, LweKeyswitchKey,
    SeededLweBootstrapKey, SeededLweKeyswitchKey,
};
use crate::error::{Error, Result};
use crate::shortint::ShortintParameters;

/// The fields of a server key (plain or compressed) as read, before the shapes of its
/// keys are checked against its parameters.
#[derive(serde::Deserialize)]
pub(super) struct ServerKeyParts<K, B> {
    keyswitch_key: K,
    bootstrap_key: B,
    parameters: ShortintParameters,
}

/// `Err` unless `parameters` are valid and the keys have the shapes they imply.
fn check_key_shapes(
    parameters: &ShortintParameters,
    keyswitch: KeyswitchKeyShape,
    bootstrap: BootstrapKeyShape,
    expected: fn(&ShortintParameters) -> BootstrapKeyShape,
) -> Result<()> {
    parameters.validate()?;
    if keyswitch != parameters.keyswitch_key_shape() {
        return Err(Error::InvalidParameter(format!(
            "the keyswitching key has shape {keyswitch:?}, its parameters imply {:?}",
            parameters.keyswitch_key_shape()
        )));
    }
    if bootstrap != expected(parameters) {
        return Err(Error::InvalidParameter(format!(
            "the bootstrap key has shape {bootstrap:?}, its parameters imply {:?}",
            expected(parameters)
        )));
    }
    Ok(())
}

/// Deserialization of a server key type from its parts: the shapes are checked first.
macro_rules! server_key_from_parts {
    ($key:ty, $keyswitch:ty, $bootstrap:ty, $shape:path $(, $extra:ident)*) => {
        impl TryFrom<ServerKeyParts<$keyswitch, $bootstrap>> for $key {
            type Error = Error;

            fn try_from(parts: ServerKeyParts<$keyswitch, $bootstrap>) -> Result<Self> {
                check_key_shapes(
                    &parts.parameters,
                    parts.keyswitch_key.shape(),
                    parts.bootstrap_key.shape(),
                    $shape,
                )?;
                Ok(Self {
                    keyswitch_key: parts.keyswitch_key,
                    bootstrap_key: parts.bootstrap_key,
                    parameters: parts.parameters,
                    $($extra: None,)*
                })
            }
        }
    };
}

server_key_from_parts!(
    ServerKey,
    LweKeyswitchKey,
    FourierLweBootstrapKey,
    ShortintParameters::bootstrap_key_shape,
    tfhe_rs_extra
);

impl ServerKey {
    /// A key of these keys, checked against `parameters`.
    pub(crate) fn from_keys(
        keyswitch_key: LweKeyswitchKey,
        bootstrap_key: FourierLweBootstrapKey,
        parameters: ShortintParameters,
    ) -> Result<Self> {
        Self::try_from(ServerKeyParts {
            keyswitch_key,
            bootstrap_key,
            parameters,
        })
    }
}

impl CompressedServerKey {
    /// A key of these seeded keys, checked against `parameters`.
    pub(crate) fn from_keys(
        keyswitch_key: SeededLweKeyswitchKey,
        bootstrap_key: SeededLweBootstrapKey,
        parameters: ShortintParameters,
    ) -> Result<Self> {
        Self::try_from(ServerKeyParts {
            keyswitch_key,
            bootstrap_key,
            parameters,
        })
    }
}
server_key_from_parts!(
    CompressedServerKey,
    SeededLweKeyswitchKey,
    SeededLweBootstrapKey,
    ShortintParameters::seeded_bootstrap_key_shape
);
