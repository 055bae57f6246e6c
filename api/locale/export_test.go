package locale

// Form is form, for the tests.
var Form = form
