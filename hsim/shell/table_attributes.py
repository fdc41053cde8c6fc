"""Table attributes in `create` and `alter` and how `describe` shows them (hbase-shell
hbase/admin.rb update_tdb_from_arg, TableDescriptorBuilder#getValues).

hsim models MAX_FILESIZE, MEMSTORE_FLUSHSIZE, SPLIT_POLICY, SPLIT_ENABLED, DURABILITY and the
CONFIGURATION keys of hsim.configuration_keys (the split policies' prefix length and
delimiter, also as METADATA, HBase's region configuration holding the table's values). The
other attributes are kept in the descriptor's values map and shown as HBase shows them; hsim
reads MERGE_ENABLED (a merge of the table fails) and the normalizer's (NORMALIZATION_ENABLED,
NORMALIZER_TARGET_REGION_COUNT and _SIZE(_MB)) from there, as HBase does; OWNER, METADATA
entries and the attributes whose effect a one-replica cluster does not see are only kept; those
HBase acts on and hsim does not are refused unless set to hsim's own value
(hsim.descriptor_attributes: COMPACTION_ENABLED, READONLY, REGION_REPLICATION, FLUSH_POLICY),
and so is a CONFIGURATION key hsim does not read. Table CONFIGURATION entries are values in
HBase 2 (admin.rb set_descriptor_config), so `describe` shows them under METADATA.
"""

from __future__ import annotations

from hsim import descriptor_attributes
from hsim.configuration_keys import KEYS, TABLE, validate
from hsim.shell.args import java_bool, java_int
from hsim.shell.formatter import human_bytes
from hsim.shell.parser import to_text
from hsim.shell.registry import ShellArgumentError
from hsim.shell.values import ruby_class, ruby_to_s

# shell name -> TableDescriptor field
MODELLED = {
    "MAX_FILESIZE": "max_filesize", "MEMSTORE_FLUSHSIZE": "memstore_flush_size",
    "SPLIT_POLICY": "split_policy", "SPLIT_ENABLED": "split_enabled", "DURABILITY": "durability",
}
# METADATA / CONFIGURATION keys hsim's split policies read -> TableDescriptor field
MODELLED_VALUES = {
    "KeyPrefixRegionSplitPolicy.prefix_length": "key_prefix_length",
    "DelimitedKeyPrefixRegionSplitPolicy.delimiter": "key_prefix_delimiter",
}
# kept in the values map: name -> (how update_tdb_from_arg reads it, does HBase act on it
# where hsim does not?); MERGE_ENABLED and the normalizer's are read there (see above)
KEPT = {
    "OWNER": ("string", False), "PRIORITY": ("int", False),
    "REGION_MEMSTORE_REPLICATION": ("bool", False), "MERGE_ENABLED": ("bool", False),
    "NORMALIZATION_ENABLED": ("bool", False), "NORMALIZER_TARGET_REGION_COUNT": ("int", False),
    "NORMALIZER_TARGET_REGION_SIZE": ("int", False),
    "NORMALIZER_TARGET_REGION_SIZE_MB": ("int", False),
    "COMPACTION_ENABLED": ("bool", True), "FLUSH_POLICY": ("string", True),
    "READONLY": ("bool", True), "REGION_REPLICATION": ("int", True),
}
# TableDescriptorBuilder's RESERVED_KEYWORDS: shown by name; every other value is METADATA
RESERVED = ("DURABILITY", "IS_META", "MAX_FILESIZE", "MEMSTORE_FLUSHSIZE", "PRIORITY",
            "READONLY", "REGION_REPLICATION")


def _key(k) -> str:
    return to_text(k) if isinstance(k, str) else str(k)


class TableAttributes:
    """A table's attributes while `create` or `alter` reads them: the modelled fields and
    the values map, then `kwargs()` for Admin.create_table / alter_table."""

    def __init__(self, desc=None):
        self.fields = {f: (getattr(desc, f) if desc is not None else None)
                       for f in (*MODELLED.values(), *MODELLED_VALUES.values())}
        self.fields["split_enabled"] = True if desc is None else desc.split_enabled
        self.values = dict(desc.values) if desc is not None else {}
        self.configuration = dict(desc.configuration) if desc is not None else {}

    def take(self, arg: dict, out) -> None:
        """Apply and remove from `arg` every table attribute it holds."""
        for k in list(arg):
            key = _key(k)
            if key in MODELLED:
                self.fields[MODELLED[key]] = _modelled_value(MODELLED[key], arg.pop(k))
            elif key in KEPT:
                kind, _ = KEPT[key]
                value = _kept_value(kind, arg.pop(k))
                if descriptor_attributes.known(key, TABLE):
                    descriptor_attributes.check(key, value, TABLE)
                self.values[key] = value
            elif descriptor_attributes.known(key, TABLE):
                descriptor_attributes.check(key, arg.pop(k), TABLE)
            elif key in ("METADATA", "CONFIGURATION"):
                self._map(key, arg.pop(k), out)

    def _map(self, which: str, value, out) -> None:
        """admin.rb set_user_metadata / set_descriptor_config: each entry becomes a value (an
        empty one removes it)."""
        if not isinstance(value, dict):
            raise ShellArgumentError(f"{which} must be a Hash type")
        for k, v in value.items():
            key, text = _key(k), to_text(ruby_to_s(v))
            if text == "":  # an empty value removes the entry
                self.values.pop(key, None)
                self.configuration.pop(key, None)
                if key in MODELLED_VALUES:
                    self.fields[MODELLED_VALUES[key]] = None
                continue
            if which == "CONFIGURATION" or key in KEYS:
                self.configuration.update(validate({key: text}, TABLE))  # or refused
            if key in MODELLED_VALUES:
                field = MODELLED_VALUES[key]
                self.fields[field] = java_int(text) if field == "key_prefix_length" else text
            if key not in self.configuration:
                self.values[key] = text

    def unset(self, name) -> None:
        """`METHOD => 'table_att_unset', NAME => ...`: Could not find attribute otherwise."""
        key = _key(name)
        field = MODELLED.get(key) or MODELLED_VALUES.get(key)
        default = True if field == "split_enabled" else None
        if field is not None and self.fields[field] != default:
            self.fields[field] = default
            self.values.pop(key, None)
            self.configuration.pop(key, None)
        elif key in self.configuration:
            del self.configuration[key]
        elif key in self.values:
            del self.values[key]
        else:
            raise ShellArgumentError(f"Could not find attribute: {key}")

    def unset_configuration(self, name) -> None:
        key = _key(name)
        if key not in self.values and key not in self.configuration:
            raise ShellArgumentError(f"Could not find configuration: {key}")
        self.unset(key)

    def kwargs(self) -> dict:
        return {**self.fields, "values": dict(self.values),
                "configuration": dict(self.configuration)}


def _modelled_value(field: str, v):
    if field in ("max_filesize", "memstore_flush_size"):
        return java_int(v)
    if field == "split_enabled":
        return java_bool(v)
    return to_text(str(v))


def _kept_value(kind: str, v) -> str:
    """The value as TableDescriptorBuilder stores it (Boolean/Integer.valueOf, then as text)."""
    if kind == "bool":
        return "true" if java_bool(v) else "false"
    if kind == "int":
        return str(java_int(v))
    if not isinstance(v, str):
        raise ShellArgumentError(f"no implicit conversion of {ruby_class(v)} into String")
    return to_text(v)


def describe_attributes(desc) -> str:
    """TableDescriptor#toStringTableAttributes: `, {TABLE_ATTRIBUTES => {...}}` or nothing.
    Reserved keys by name, then every other value under METADATA, each set in key order."""
    from hsim.client.catalog import is_meta

    values = {**desc.values, **desc.configuration}  # HBase 2 keeps both as values
    if is_meta(desc.name):
        values["IS_META"] = "true"  # printed only when true
    if desc.durability:
        from hsim.durability import Durability

        values["DURABILITY"] = Durability(desc.durability).name
    if desc.max_filesize is not None:
        values["MAX_FILESIZE"] = str(desc.max_filesize)
    if desc.memstore_flush_size is not None:
        values["MEMSTORE_FLUSHSIZE"] = str(desc.memstore_flush_size)
    if desc.split_policy is not None:
        values["SPLIT_POLICY"] = desc.split_policy
    if desc.split_enabled is False:
        values["SPLIT_ENABLED"] = "false"
    for key, field in MODELLED_VALUES.items():
        v = getattr(desc, field)
        if v is not None:
            values[key] = v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v)
    if not values:
        return ""
    order = sorted(values, key=lambda k: k.encode())
    attrs = [f"{k} => '{_pretty(k, values[k])}'" for k in order if k in RESERVED]
    user = [f"'{k}' => '{_pretty(k, values[k])}'" for k in order if k not in RESERVED]
    if user:
        attrs.append(f"METADATA => {{{', '.join(user)}}}")
    return f", {{TABLE_ATTRIBUTES => {{{', '.join(attrs)}}}}}"


def _pretty(key: str, value: str) -> str:
    """PrettyPrinter.format with TableDescriptorBuilder.getUnit: sizes as bytes."""
    if key in ("MAX_FILESIZE", "MEMSTORE_FLUSHSIZE"):
        return human_bytes(int(value))
    return value
