"""ChGK (Что? Где? Когда?): the tour sheet and its keyboard grid, the tour calendar and host
teams, the question duty and the club's question database, and the rating site's JSON."""
