# Shared by the shell test scripts (test/ledger, test/multiserver), which source it: PASS/FAIL lines and their
# counts in $passed and $failed.
passed=0
failed=0
check() {  # check NAME EXPECTED ACTUAL
	if [ "$2" == "$3" ]; then
		echo "PASS: $1"
		passed=$((passed + 1))
	else
		echo "FAIL: $1 (expected '$2', got '$3')"
		failed=$((failed + 1))
	fi
}
