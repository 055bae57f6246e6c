package names

// SimpleFold is simpleFold, for the tests to put back.
var SimpleFold = simpleFold
