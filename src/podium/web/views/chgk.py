"""(being written)"""

app_name = "chgk"
urlpatterns: list[object] = []
