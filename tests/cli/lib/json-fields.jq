# jq -e -f json-fields.jq: true when --format json has the documented shape.
def count: type == "number" and . >= 0 and floor == .;
def cover: (.covered | count) and (.total | count) and (.percent | type == "number");
.version == 1
and (.files | count) and (.questions | count)
and (.failed | type == "boolean")
and (.counts | (.error | count) and (.warning | count) and (.info | count))
and (.coverage.explanations | cover) and (.coverage.rationales | cover)
and (.diagnostics | type == "array")
and all(.diagnostics[];
    (keys == ["file", "line", "message", "question", "rule", "severity"])
    and (.file == null or (.file | type == "string"))
    and (.line == null or (.line | count))
    and (.severity | IN("error", "warning", "info"))
    and (.rule | type == "string")
    and (.message | type == "string")
    and (.question == null or (.question | type == "string")))
and (.counts.error + .counts.warning + .counts.info) == (.diagnostics | length)
