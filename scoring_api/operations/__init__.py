"""The scoring operations: what each one is (:mod:`.operation`), one module per game that
registers its operations (:mod:`.apero`, :mod:`.applejack`, :mod:`.fairy_black_box`,
:mod:`.pedro`), and the registry every surface reads (:mod:`.registry`)."""
