# sh junit-check.sh FILE: JUnit valid against the schema of what Jenkins and
# GitLab read (junit-ci.xsd, beside this script), with unique test case
# names per suite and failure counts that add up.
f=$1
xmllint --noout --schema "$(dirname "$0")/junit-ci.xsd" "$f" 2>&1 >/dev/null |
	grep -v ' validates$' && exit 1
x() { xmllint --xpath "$1" "$f"; }
[ "$(x 'name(/*)')" = testsuites ] || { echo "root is not testsuites"; exit 1; }
[ "$(x 'count(//testcase)')" = "$(x 'string(/testsuites/@tests)')" ] || { echo "tests attribute"; exit 1; }
[ "$(x 'count(//failure)')" = "$(x 'string(/testsuites/@failures)')" ] || { echo "failures attribute"; exit 1; }
n=$(x 'count(//testsuite)')
i=1
while [ "$i" -le "$n" ]; do
	s="//testsuite[$i]"
	[ "$(x "count($s/testcase)")" = "$(x "string($s/@tests)")" ] || { echo "suite $i: tests"; exit 1; }
	[ "$(x "count($s/testcase/failure)")" = "$(x "string($s/@failures)")" ] || { echo "suite $i: failures"; exit 1; }
	dup=$(x "$s/testcase/@name" | sort | uniq -d)
	[ -z "$dup" ] || { echo "suite $i: duplicate test case names: $dup"; exit 1; }
	[ "$(x "count($s/testcase[@classname != $s/@name])")" = 0 ] || { echo "suite $i: classname"; exit 1; }
	i=$((i + 1))
done
