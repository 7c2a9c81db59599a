"""Builds tf.Example / tf.SequenceExample records with the protoc-generated classes."""


def set_feature(feature, value):
    """Sets a Feature from ('int64'|'float'|'bytes', [values]); None leaves it kind-less."""
    if value is None:
        return
    kind, values = value
    if kind == "int64":
        feature.int64_list.value.extend(values)
    elif kind == "float":
        feature.float_list.value.extend(values)
    elif kind == "bytes":
        feature.bytes_list.value.extend(values)
    else:
        raise ValueError(kind)


def example(pb, **features) -> bytes:
    """A serialized tf.Example with the given features."""
    ex = pb.Example()
    for name, value in features.items():
        set_feature(ex.features.feature[name], value)
    return ex.SerializeToString()


def sequence_example(pb, context, feature_lists) -> bytes:
    """A serialized tf.SequenceExample: context {name: value}, feature_lists {name: [value...]}."""
    seq = pb.SequenceExample()
    for name, value in context.items():
        set_feature(seq.context.feature[name], value)
    for name, steps in feature_lists.items():
        feature_list = seq.feature_lists.feature_list[name]
        for step in steps:
            set_feature(feature_list.feature.add(), step)
    return seq.SerializeToString()
