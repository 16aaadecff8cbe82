"""(being written)"""

app_name = "calendar"
urlpatterns: list[object] = []
