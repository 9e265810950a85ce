//! Proven compact lists between gpufhe and TFHE-rs's data: each proven part is a
//! TFHE-rs `shortint` compact list of one mask (already in TFHE-rs's layout, see
//! `high_level::zk::encrypt`) and its proof, the proof being `tfhe-zk-pok`'s own.

use super::compact::{kind_from_wire, kind_to_wire, list_shape, packed_of_degree};
use super::dedicated::{expansion_kind_from_wire, no_casting};
use super::parameters::{known_parameters, tag_from_wire, tag_to_wire};
use super::wire::core::{CiphertextModulus, LweCiphertextCount, LweCompactCiphertextList, LweSize};
use super::wire::shortint::CompactCiphertextListExpansionKind as WireExpansionKind;
use super::wire::shortint::{
    CarryModulus, CompactCiphertextList as ShortintList, Degree, MessageModulus,
};
use super::wire::zk::{
    IntegerProvenCompactCiphertextList, ProvenCompactCiphertextList as WireList,
    ShortintProvenCompactCiphertextList,
};
use super::{versionize_through_wire, TfheRsForm};
use crate::error::{check_eq, Error, Result};
use crate::high_level::zk::encrypt::ProvenList;
use crate::high_level::ProvenCompactCiphertextList;
use crate::shortint::CompactCiphertextListExpansionKind as ExpansionKind;

impl TfheRsForm for ProvenCompactCiphertextList {
    type Wire = WireList;

    fn to_wire(&self) -> Result<WireList> {
        let p = &self.parameters;
        let m = p.message_modulus;
        let proved_lists = self
            .lists
            .iter()
            .map(|list| {
                let mut data = list.mask.clone();
                data.extend_from_slice(&list.bodies);
                let shortint = ShortintList {
                    ct_list: LweCompactCiphertextList {
                        data,
                        lwe_size: LweSize(list.mask.len() + 1),
                        lwe_ciphertext_count: LweCiphertextCount(list.bodies.len()),
                        ciphertext_modulus: CiphertextModulus::NATIVE_U64,
                    },
                    degree: Degree(if self.packed { m * m - 1 } else { m - 1 }),
                    message_modulus: MessageModulus(m),
                    carry_modulus: CarryModulus(p.carry_modulus),
                    expansion_kind: if self.casting.is_some() {
                        WireExpansionKind::RequiresCasting
                    } else {
                        no_casting()
                    },
                };
                (shortint, list.proof.clone())
            })
            .collect();
        let info = self
            .kinds
            .iter()
            .map(|&k| kind_to_wire(k, p))
            .collect::<Result<_>>()?;
        Ok(WireList {
            inner: IntegerProvenCompactCiphertextList {
                ct_list: ShortintProvenCompactCiphertextList { proved_lists },
                info,
            },
            tag: tag_to_wire(self.tag),
        })
    }

    fn from_wire(wire: WireList) -> Result<Self> {
        let tag = tag_from_wire(&wire.tag);
        let parts = wire.inner.ct_list.proved_lists;
        // The shape every part must share: its expansion kind, moduli, dimension and
        // packing.
        let mut shape: Option<(ExpansionKind, u64, u64, usize, bool)> = None;
        let mut lists = Vec::with_capacity(parts.len());
        for (list, proof) in parts {
            let kind = expansion_kind_from_wire(&list.expansion_kind, "proven compact list")?;
            let lwe = list.ct_list;
            lwe.ciphertext_modulus
                .check_native_u64("proven compact list")?;
            let (m, carry) = (list.message_modulus.0, list.carry_modulus.0);
            let packed = packed_of_degree(list.degree.0, m)?;
            let n = lwe
                .lwe_size
                .0
                .checked_sub(1)
                .filter(|&n| n > 0)
                .ok_or_else(|| {
                    Error::InvalidParameter("a proven compact list of LWE size 0 or 1".into())
                })?;
            let this = (kind, m, carry, n, packed);
            if *shape.get_or_insert(this) != this {
                return Err(Error::InvalidParameter(
                    "the parts of a proven compact list differ in their parameters or packing"
                        .into(),
                ));
            }
            let count = lwe.lwe_ciphertext_count.0;
            if count == 0 || count > n {
                return Err(Error::InvalidParameter(format!(
                    "a part of a proven compact list with {count} blocks under a mask of {n} words"
                )));
            }
            check_eq("words of a proven list's part", n + count, lwe.data.len())?;
            let mut mask = lwe.data;
            let bodies = mask.split_off(n);
            lists.push(ProvenList {
                mask,
                bodies,
                proof,
            });
        }
        let (parameters, casting, packed) = match shape {
            Some((kind, m, carry, n, packed)) => {
                let (p, casting) = list_shape(kind, n, m, carry, "proven compact list")?;
                (p, casting, packed)
            }
            // No part: no blocks to hold, any parameters do.
            None => {
                let p = known_parameters().into_iter().next().ok_or_else(|| {
                    Error::InvalidParameter("no known parameters for an empty list".into())
                })?;
                (p, None, true)
            }
        };
        let kinds = wire
            .inner
            .info
            .iter()
            .map(|k| kind_from_wire(k, &parameters))
            .collect::<Result<Vec<_>>>()?;
        let list = ProvenCompactCiphertextList {
            tag,
            parameters,
            casting,
            kinds,
            packed,
            lists,
        };
        list.validate()?;
        Ok(list)
    }
}

versionize_through_wire!(
    "high_level_api::ProvenCompactCiphertextList",
    WireList,
    [] ProvenCompactCiphertextList
);

impl serde::Serialize for ProvenCompactCiphertextList {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        self.to_wire()
            .map_err(serde::ser::Error::custom)?
            .serialize(s)
    }
}

impl<'de> serde::Deserialize<'de> for ProvenCompactCiphertextList {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        Self::from_wire(WireList::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}
