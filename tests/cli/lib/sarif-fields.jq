# jq -e --argjson ids '[rule ids of the table]' --arg version V -f sarif-fields.jq
# True when the SARIF log has every field GitHub code scanning reads.
def level: IN("error", "warning", "note");
.["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json"
and .version == "2.1.0"
and (.runs | length) == 1
and (.runs[0] as $run
  | $run.tool.driver as $d
  | $d.name == "qbank"
  and $d.version == $version
  and ($d.informationUri | test("^https://"))
  and ([$d.rules[].id][0:($ids | length)] == $ids)
  and all($d.rules[];
      (.id | type) == "string"
      and (.shortDescription.text | length > 0)
      and (.fullDescription.text | length > 0)
      and (.help.text | length > 0)
      and (.defaultConfiguration.level | level))
  and ($run.results | type) == "array"
  and all($run.results[];
      . as $r
      | ($r.ruleId | type) == "string"
      and ($r.ruleIndex | type) == "number"
      and $d.rules[$r.ruleIndex].id == $r.ruleId
      and ($r.level | level)
      and ($r.message.text | length > 0)
      and ($r.locations | length) == 1
      and ($r.locations[0].physicalLocation.artifactLocation.uri
           | type == "string" and length > 0
             and (test("^\\./|^/|\\\\|^[a-z]+:") | not))
      and ($r.locations[0].physicalLocation.region.startLine | type == "number" and . >= 1)
      and ($r.partialFingerprints["qbank/v1"] | test("^[0-9a-f]{16}:[1-9][0-9]*$")))
  and ([$run.results[].partialFingerprints["qbank/v1"]] | length == (unique | length)))
