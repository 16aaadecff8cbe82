"""(being written)"""

app_name = "prizes"
urlpatterns: list[object] = []
