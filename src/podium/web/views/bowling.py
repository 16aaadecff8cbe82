"""(being written)"""

app_name = "bowling"
urlpatterns: list[object] = []
